import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { OAuthClientMetadataSchema } from '@modelcontextprotocol/sdk/shared/auth.js';
import { RateLimitService } from '../../../../common/rate-limit/rate-limit.service';
import { APP_CONFIG, type AppConfig } from '../../../../config/config';
import { oauthError } from '../../oauth-errors';
import { OAuthRepository } from '../../oauth.repository';
import { redirectUriProblem } from '../../redirect-uris';
import { RegisterClientCommand } from './register-client.command';

const GRANT_TYPES = ['authorization_code', 'refresh_token'];
const text = (v: unknown, max: number): string | null => (typeof v === 'string' && v.length > 0 ? v.slice(0, max) : null);

/**
 * Registers a public client (token_endpoint_auth_method `none`, no secret). Metadata is parsed
 * with the MCP SDK's RFC 7591 schema; our rules on top: 1..10 redirect URIs (redirect-uris.ts),
 * grant types within authorization_code/refresh_token, response type `code`. Rate-limited per
 * client address before anything else.
 */
@CommandHandler(RegisterClientCommand)
export class RegisterClientHandler implements ICommandHandler<RegisterClientCommand, Record<string, unknown>> {
  constructor(
    private readonly repo: OAuthRepository,
    private readonly limits: RateLimitService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ body, ip }: RegisterClientCommand): Promise<Record<string, unknown>> {
    await this.limits.consume({ name: 'oauth-register', points: this.config.oauthRegistrationPerHour, durationSeconds: 3600, failClosed: false }, ip);
    const parsed = OAuthClientMetadataSchema.safeParse(body);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      const field = first?.path.join('.') || 'body';
      throw oauthError(field.startsWith('redirect_uris') ? 'invalid_redirect_uri' : 'invalid_client_metadata', `${field}: ${first?.message ?? 'invalid'}`);
    }
    const meta = parsed.data;
    if (meta.redirect_uris.length < 1 || meta.redirect_uris.length > 10) throw oauthError('invalid_redirect_uri', 'redirect_uris: give 1 to 10 URIs');
    meta.redirect_uris.forEach((u, i) => {
      const problem = redirectUriProblem(u);
      if (problem) throw oauthError('invalid_redirect_uri', `redirect_uris[${i}] ${problem}`);
    });
    if (meta.token_endpoint_auth_method !== undefined && meta.token_endpoint_auth_method !== 'none') {
      throw oauthError('invalid_client_metadata', 'token_endpoint_auth_method: only public clients (`none`) can register; PKCE protects the code');
    }
    const grantTypes = meta.grant_types ?? ['authorization_code', 'refresh_token'];
    if (!grantTypes.includes('authorization_code') || grantTypes.some((g) => !GRANT_TYPES.includes(g))) {
      throw oauthError('invalid_client_metadata', 'grant_types: authorization_code (with optional refresh_token) only');
    }
    const responseTypes = meta.response_types ?? ['code'];
    if (responseTypes.some((r) => r !== 'code')) throw oauthError('invalid_client_metadata', 'response_types: `code` only');
    const row = await this.repo.insertClient({
      id: randomUUID(),
      client_name: text(meta.client_name, 200),
      redirect_uris: [...new Set(meta.redirect_uris.map(String))],
      client_uri: text(meta.client_uri, 2048),
      software_id: text(meta.software_id, 200),
      software_version: text(meta.software_version, 200),
      scope: text(meta.scope, 1000),
    });
    return {
      client_id: row.id,
      client_id_issued_at: Math.floor(row.created_at.getTime() / 1000),
      client_name: row.client_name ?? undefined,
      client_uri: row.client_uri ?? undefined,
      redirect_uris: row.redirect_uris,
      grant_types: grantTypes,
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...(row.scope ? { scope: row.scope } : {}),
    };
  }
}
