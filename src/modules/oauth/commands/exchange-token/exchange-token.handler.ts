import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource, type EntityManager } from 'typeorm';
import { isUuid } from '../../../../common/http/validation';
import { RateLimitService } from '../../../../common/rate-limit/rate-limit.service';
import { APP_CONFIG, type AppConfig } from '../../../../config/config';
import { oauthError } from '../../oauth-errors';
import { OAuthRepository } from '../../oauth.repository';
import {
  ACCESS_TOKEN_PREFIX,
  ACCESS_TOKEN_TTL_SECONDS,
  hashSecret,
  newSecret,
  pkceMatches,
  REFRESH_TOKEN_PREFIX,
  REFRESH_TOKEN_TTL_SECONDS,
  wellFormedSecret,
} from '../../oauth-tokens';
import { ExchangeTokenCommand, type TokenResponse } from './exchange-token.command';

const field = (b: Record<string, unknown>, k: string): string | undefined => {
  const v = b[k];
  if (Array.isArray(v)) throw oauthError('invalid_request', `${k} given more than once`);
  return typeof v === 'string' && v !== '' ? v : undefined;
};

/**
 * The token endpoint for public clients: `authorization_code` (PKCE S256, exact redirect URI,
 * single-use 60-second code, the resource bound at authorization) and `refresh_token` (rotation:
 * every refresh token works once; presenting a used one revokes the whole connection, RFC 9700
 * §4.14). A second use of a code also revokes what it produced. Rate-limited per client address.
 */
@CommandHandler(ExchangeTokenCommand)
export class ExchangeTokenHandler implements ICommandHandler<ExchangeTokenCommand, TokenResponse> {
  constructor(
    private readonly db: DataSource,
    private readonly repo: OAuthRepository,
    private readonly limits: RateLimitService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ body, resource, ip }: ExchangeTokenCommand): Promise<TokenResponse> {
    await this.limits.consume({ name: 'oauth-token', points: this.config.oauthTokenPerMinute, durationSeconds: 60, failClosed: false }, ip);
    const grantType = field(body, 'grant_type');
    if (!grantType) throw oauthError('invalid_request', 'grant_type is required');
    if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
      throw oauthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
    }
    const clientId = field(body, 'client_id');
    if (!clientId || !isUuid(clientId) || !(await this.repo.client(clientId.toLowerCase()))) {
      throw oauthError('invalid_client', 'client_id does not name a registered client', 401);
    }
    const requested = field(body, 'resource');
    if (requested !== undefined && requested !== resource) throw oauthError('invalid_target', `resource must be ${resource}`);
    const outcome =
      grantType === 'authorization_code' ? await this.fromCode(body, clientId.toLowerCase()) : await this.fromRefresh(body, clientId.toLowerCase());
    // a replayed code or refresh token revoked the connection in its own commit; now refuse
    if ('refused' in outcome) throw outcome.refused;
    return outcome.tokens;
  }

  private async fromCode(body: Record<string, unknown>, clientId: string): Promise<{ tokens: TokenResponse } | { refused: Error }> {
    const code = field(body, 'code');
    const verifier = field(body, 'code_verifier');
    const redirectUri = field(body, 'redirect_uri');
    if (!code) throw oauthError('invalid_request', 'code is required');
    if (!verifier) throw oauthError('invalid_request', 'code_verifier is required (PKCE)');
    const invalid = () =>
      oauthError('invalid_grant', 'The authorization code is invalid, expired, already used, or was issued to another client or redirect URI');
    const hash = hashSecret(code);
    return this.db.transaction(async (m) => {
      const row = await this.repo.lockCode(hash, m);
      if (!row || row.client_id !== clientId || row.grant_revoked) throw invalid();
      if (row.used) {
        await this.repo.revokeGrant(row.grant_id, 'client', m);
        return { refused: invalid() };
      }
      if (row.expired) throw invalid();
      if (redirectUri !== row.redirect_uri) throw invalid();
      if (!pkceMatches(verifier, row.code_challenge)) throw oauthError('invalid_grant', 'code_verifier does not match the code_challenge');
      await this.repo.useCode(hash, m);
      return { tokens: await this.issue(row.grant_id, row.resource, m) };
    });
  }

  private async fromRefresh(body: Record<string, unknown>, clientId: string): Promise<{ tokens: TokenResponse } | { refused: Error }> {
    const token = field(body, 'refresh_token');
    if (!token) throw oauthError('invalid_request', 'refresh_token is required');
    const invalid = () => oauthError('invalid_grant', 'The refresh token is invalid, expired, revoked or already used');
    if (!wellFormedSecret(token, REFRESH_TOKEN_PREFIX)) throw invalid();
    const hash = hashSecret(token);
    return this.db.transaction(async (m) => {
      const row = await this.repo.lockToken(hash, m);
      if (!row || row.kind !== 'refresh' || row.client_id !== clientId || row.grant_revoked || row.revoked) throw invalid();
      if (row.used) {
        await this.repo.revokeGrant(row.grant_id, 'refresh_token_reuse', m);
        return { refused: invalid() };
      }
      if (row.expired) throw invalid();
      await this.repo.useToken(hash, m);
      return { tokens: await this.issue(row.grant_id, row.resource, m) };
    });
  }

  private async issue(grantId: string, resource: string, m: EntityManager): Promise<TokenResponse> {
    const access = newSecret(ACCESS_TOKEN_PREFIX);
    const refresh = newSecret(REFRESH_TOKEN_PREFIX);
    await this.repo.insertToken({ hash: hashSecret(access), kind: 'access', grantId, resource }, ACCESS_TOKEN_TTL_SECONDS, m);
    await this.repo.insertToken({ hash: hashSecret(refresh), kind: 'refresh', grantId, resource }, REFRESH_TOKEN_TTL_SECONDS, m);
    return { access_token: access, token_type: 'Bearer', expires_in: ACCESS_TOKEN_TTL_SECONDS, refresh_token: refresh };
  }
}
