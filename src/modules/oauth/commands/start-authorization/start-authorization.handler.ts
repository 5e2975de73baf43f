import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { isUuid } from '../../../../common/http/validation';
import { ManageableAgents } from '../../manageable-agents.service';
import { oauthError } from '../../oauth-errors';
import { OAuthRepository } from '../../oauth.repository';
import { AUTHORIZATION_REQUEST_TTL_SECONDS, CHALLENGE_SHAPE } from '../../oauth-tokens';
import { redirectUriMatches } from '../../redirect-uris';
import { type AuthorizationOutcome, StartAuthorizationCommand } from './start-authorization.command';

/** Where a browser without a session signs in; it comes back to `return_to` (the authorization URL). */
export const SIGN_IN_PATH = '/login';

const one = (q: Record<string, unknown>, k: string): string | undefined => {
  const v = q[k];
  if (Array.isArray(v)) throw oauthError('invalid_request', `${k} given more than once`);
  return typeof v === 'string' && v !== '' ? v : undefined;
};

/**
 * Checks the request in RFC 6749's order: a bad client or redirect URI is answered here (never a
 * redirect to an unverified URI); other problems go back to the client's redirect URI with
 * `error` and `state`. No session: a redirect to sign-in, never a code. Otherwise the request is
 * stored (10 minutes, bound to this human) and described for consent.
 */
@CommandHandler(StartAuthorizationCommand)
export class StartAuthorizationHandler implements ICommandHandler<StartAuthorizationCommand, AuthorizationOutcome> {
  constructor(
    private readonly repo: OAuthRepository,
    private readonly manageable: ManageableAgents,
  ) {}

  async execute({ query, userId, resource, issuer, requestUrl }: StartAuthorizationCommand): Promise<AuthorizationOutcome> {
    const clientId = one(query, 'client_id');
    const client = clientId && isUuid(clientId) ? await this.repo.client(clientId.toLowerCase()) : undefined;
    if (!client) throw oauthError('invalid_client', 'client_id does not name a registered client', 400);
    const given = one(query, 'redirect_uri');
    if (given === undefined && client.redirect_uris.length !== 1)
      throw oauthError('invalid_request', 'redirect_uri is required (the client registered several)');
    const redirectUri = given ?? client.redirect_uris[0];
    if (!redirectUriMatches(client.redirect_uris, redirectUri)) throw oauthError('invalid_request', 'redirect_uri is not registered for this client');

    const state = one(query, 'state');
    const back = (error: string, description: string): AuthorizationOutcome => {
      const u = new URL(redirectUri);
      u.searchParams.set('error', error);
      u.searchParams.set('error_description', description);
      if (state !== undefined) u.searchParams.set('state', state);
      u.searchParams.set('iss', issuer);
      return { kind: 'redirect', location: u.toString() };
    };
    if (state !== undefined && state.length > 1000) return back('invalid_request', 'state is longer than 1000 characters');
    if (one(query, 'response_type') !== 'code') return back('unsupported_response_type', 'response_type must be code');
    const challenge = one(query, 'code_challenge');
    if (one(query, 'code_challenge_method') !== 'S256') return back('invalid_request', 'code_challenge_method must be S256 (PKCE is required)');
    if (!challenge || !CHALLENGE_SHAPE.test(challenge)) return back('invalid_request', 'code_challenge must be the base64url SHA-256 of the code verifier');
    const requested = one(query, 'resource');
    if (!requested) return back('invalid_target', `resource is required (${resource})`);
    if (requested !== resource) return back('invalid_target', `resource must be ${resource}`);
    const scope = one(query, 'scope') ?? null;
    if (scope !== null && scope.length > 1000) return back('invalid_scope', 'scope is too long');

    if (!userId) {
      return { kind: 'redirect', location: `${SIGN_IN_PATH}?return_to=${encodeURIComponent(requestUrl)}` };
    }
    const id = randomUUID();
    await this.repo.insertRequest(
      { id, client_id: client.id, user_id: userId, redirect_uri: redirectUri, code_challenge: challenge, state: state ?? null, scope, resource },
      AUTHORIZATION_REQUEST_TTL_SECONDS,
    );
    return {
      kind: 'consent',
      authorization_id: id,
      client: { client_id: client.id, client_name: client.client_name, client_uri: client.client_uri, redirect_uri: redirectUri },
      resource,
      scope,
      agents: await this.manageable.of(userId),
    };
  }
}
