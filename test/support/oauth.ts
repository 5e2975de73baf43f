import { createHash, randomBytes } from 'node:crypto';
import type request from 'supertest';
import type { TestApp } from './app';
import type { TestUser } from './factories';

export const REDIRECT = 'http://127.0.0.1:53682/callback';
/** A fresh client address per caller (the test apps trust loopback proxies), so address-keyed rate limits do not leak across runs. */
export const freshIp = (): string => `10.${randomBytes(3).join('.')}`;

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export interface OAuthClient {
  client_id: string;
}

export async function registerClient(t: TestApp, ip: string, body: Record<string, unknown> = {}): Promise<OAuthClient> {
  const res = await t
    .http()
    .post('/api/oauth/register')
    .set('x-forwarded-for', ip)
    .send({ client_name: 'Test host', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', ...body })
    .expect(201);
  return res.body;
}

export function authorizeQuery(client: OAuthClient, resource: string, challenge: string, extra: Record<string, string> = {}): string {
  return new URLSearchParams({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'st-1',
    resource,
    ...extra,
  }).toString();
}

/** Authorize as `human` and consent for `agentIds`; returns the code and the PKCE verifier. */
export async function consentFor(
  human: TestUser,
  client: OAuthClient,
  resource: string,
  agentIds: string[],
): Promise<{ code: string; verifier: string; authorizationId: string }> {
  const p = pkce();
  const start = await human.http
    .get(`/api/oauth/authorize?${authorizeQuery(client, resource, p.challenge)}`)
    .set('accept', 'application/json')
    .expect(200);
  const res = await human.http
    .post('/api/oauth/consent')
    .send({ authorization_id: start.body.authorization_id, approve: true, agent_ids: agentIds })
    .expect(302);
  const loc = new URL(res.headers.location);
  return { code: loc.searchParams.get('code')!, verifier: p.verifier, authorizationId: start.body.authorization_id };
}

export function tokenRequest(t: TestApp, ip: string, fields: Record<string, string>): request.Test {
  return t.http().post('/api/oauth/token').set('x-forwarded-for', ip).type('form').send(new URLSearchParams(fields).toString());
}

export interface Tokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  token_type: string;
}

export async function tokensFor(t: TestApp, ip: string, client: OAuthClient, resource: string, human: TestUser, agentIds: string[]): Promise<Tokens> {
  const c = await consentFor(human, client, resource, agentIds);
  const res = await tokenRequest(t, ip, {
    grant_type: 'authorization_code',
    code: c.code,
    redirect_uri: REDIRECT,
    client_id: client.client_id,
    code_verifier: c.verifier,
    resource,
  }).expect(200);
  return res.body;
}
