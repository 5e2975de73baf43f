import { randomUUID } from 'node:crypto';
import { addMember, bearer, newAgent, newOrg, newProject, newUser, type TestOrg, type TestUser } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';
import { authorizeQuery, consentFor, freshIp, type OAuthClient, pkce, REDIRECT, registerClient, tokenRequest, tokensFor } from '../support/oauth';

const PUBLIC = 'http://service.test';
const RESOURCE = `${PUBLIC}/mcp`;

/**
 * OAuth 2.1 authorization server of the MCP resource: metadata, registration, authorization with
 * PKCE and consent, tokens (rotation, reuse detection), revocation, connections, agent profiles,
 * OAuth bearers on REST, and every bad input as a 4xx OAuth or service error.
 */
describe('oauth', () => {
  let t: TestApp;
  let org: TestOrg;
  let agent: { id: string; key: string };
  let agent2: { id: string; key: string };
  let client: OAuthClient;
  let ip: string;
  const withToken = (token: string) => bearer(t, token);

  beforeAll(async () => {
    t = await startTestApp({ SERVICE_PUBLIC_URL: PUBLIC, TRUST_PROXY: 'loopback' });
    org = await newOrg(t);
    await newProject(t, org);
    agent = await newAgent(t, org, { role: 'member' });
    agent2 = await newAgent(t, org, { role: 'member' });
    ip = freshIp();
    client = await registerClient(t, ip);
  });
  afterAll(() => t.close());

  it('publishes protected-resource and authorization-server metadata', async () => {
    const prm = (await t.http().get('/.well-known/oauth-protected-resource').expect(200)).body;
    expect(prm).toMatchObject({ resource: RESOURCE, authorization_servers: [PUBLIC], bearer_methods_supported: ['header'] });
    expect((await t.http().get('/.well-known/oauth-protected-resource/mcp').expect(200)).body.resource).toBe(RESOURCE);
    const as = (await t.http().get('/.well-known/oauth-authorization-server').expect(200)).body;
    expect(as).toMatchObject({
      issuer: PUBLIC,
      authorization_endpoint: `${PUBLIC}/api/oauth/authorize`,
      token_endpoint: `${PUBLIC}/api/oauth/token`,
      registration_endpoint: `${PUBLIC}/api/oauth/register`,
      revocation_endpoint: `${PUBLIC}/api/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
    });
  });

  describe('registration', () => {
    it('registers a public client with exact redirect URIs and no secret', async () => {
      const c = await registerClient(t, freshIp(), { redirect_uris: ['https://app.example.com/cb', 'http://[::1]/cb'] });
      expect(c).toMatchObject({ redirect_uris: ['https://app.example.com/cb', 'http://[::1]/cb'], token_endpoint_auth_method: 'none' });
      expect(c).not.toHaveProperty('client_secret');
    });

    it.each([
      [{ redirect_uris: [] }, 'invalid_redirect_uri'],
      [{ redirect_uris: 'http://127.0.0.1/cb' }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['http://evil.example.com/cb'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['https://app.example.com/cb#frag'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['not a url'] }, 'invalid_redirect_uri'],
      [{ token_endpoint_auth_method: 'client_secret_basic' }, 'invalid_client_metadata'],
      [{ grant_types: ['client_credentials'] }, 'invalid_client_metadata'],
      [{ response_types: ['token'] }, 'invalid_client_metadata'],
    ])('refuses %j with %s', async (patch, code) => {
      const res = await t
        .http()
        .post('/api/oauth/register')
        .set('x-forwarded-for', freshIp())
        .send({ client_name: 'x', redirect_uris: [REDIRECT], ...patch })
        .expect(400);
      expect(res.body).toMatchObject({ error: code, code, error_description: expect.any(String) });
    });

    it('refuses a body that is not a JSON object', async () => {
      await t.http().post('/api/oauth/register').set('x-forwarded-for', freshIp()).set('content-type', 'application/json').send('[1]').expect(400);
    });
  });

  describe('authorization and consent', () => {
    it('answers a signed-in human with the consent description as JSON, or a consent page', async () => {
      const p = pkce();
      const res = await org.owner.http
        .get(`/api/oauth/authorize?${authorizeQuery(client, RESOURCE, p.challenge)}`)
        .set('accept', 'application/json')
        .expect(200);
      expect(res.body).toMatchObject({ authorization_id: expect.any(String), client: { client_id: client.client_id }, resource: RESOURCE });
      expect(res.body.agents.map((a: { id: string }) => a.id)).toEqual(expect.arrayContaining([agent.id, agent2.id]));
      expect(res.body.agents[0]).toMatchObject({ organization: { id: org.id, name: expect.any(String) }, display_name: expect.any(String) });
      const page = await org.owner.http
        .get(`/api/oauth/authorize?${authorizeQuery(client, RESOURCE, p.challenge)}`)
        .set('accept', 'text/html')
        .expect(200);
      expect(page.headers['content-type']).toMatch(/text\/html/);
      expect(page.text).toContain('name="agent_ids"');
    });

    it('sends a browser without a session to sign-in, never a code', async () => {
      const res = await t
        .http()
        .get(`/api/oauth/authorize?${authorizeQuery(client, RESOURCE, pkce().challenge)}`)
        .expect(302);
      expect(res.headers.location).toMatch(/^\/login\?return_to=/);
      expect(res.headers.location).not.toContain('code=');
    });

    it('answers an unknown client or an unregistered redirect URI itself (no redirect)', async () => {
      const c = pkce().challenge;
      const a = await org.owner.http.get(`/api/oauth/authorize?${authorizeQuery({ client_id: randomUUID() }, RESOURCE, c)}`).expect(400);
      expect(a.body.code).toBe('invalid_client');
      const b = await org.owner.http
        .get(`/api/oauth/authorize?${authorizeQuery(client, RESOURCE, c, { redirect_uri: 'http://127.0.0.1:53682/other' })}`)
        .expect(400);
      expect(b.body.code).toBe('invalid_request');
      expect(b.headers.location).toBeUndefined();
    });

    it('accepts a loopback redirect on another port (RFC 8252)', async () => {
      const res = await org.owner.http
        .get(`/api/oauth/authorize?${authorizeQuery(client, RESOURCE, pkce().challenge, { redirect_uri: 'http://127.0.0.1:40000/callback' })}`)
        .set('accept', 'application/json')
        .expect(200);
      expect(res.body.client.redirect_uri).toBe('http://127.0.0.1:40000/callback');
    });

    it.each([
      [{ code_challenge_method: 'plain' }, 'invalid_request'],
      [{ code_challenge: 'short' }, 'invalid_request'],
      [{ response_type: 'token' }, 'unsupported_response_type'],
      [{ resource: 'https://other.example.com/mcp' }, 'invalid_target'],
      [{ resource: '' }, 'invalid_target'],
    ])('sends %j back to the client as error=%s with state', async (patch, error) => {
      const res = await org.owner.http.get(`/api/oauth/authorize?${authorizeQuery(client, RESOURCE, pkce().challenge, patch)}`).expect(302);
      const loc = new URL(res.headers.location);
      expect(`${loc.origin}${loc.pathname}`).toBe(REDIRECT);
      expect(loc.searchParams.get('error')).toBe(error);
      expect(loc.searchParams.get('state')).toBe('st-1');
      expect(loc.searchParams.get('code')).toBeNull();
    });

    it('a JSON client (Accept: application/json) gets 200 { redirect_to } instead of the 302', async () => {
      const start = await org.owner.http
        .get(`/api/oauth/authorize?${authorizeQuery(client, RESOURCE, pkce().challenge)}`)
        .set('accept', 'application/json')
        .expect(200);
      const res = await org.owner.http
        .post('/api/oauth/consent')
        .set('accept', 'application/json')
        .send({ authorization_id: start.body.authorization_id, approve: false })
        .expect(200);
      expect(res.headers.location).toBeUndefined();
      const loc = new URL(res.body.redirect_to);
      expect(`${loc.origin}${loc.pathname}`).toBe(REDIRECT);
      expect(loc.searchParams.get('error')).toBe('access_denied');
      expect(loc.searchParams.get('state')).toBe('st-1');
    });

    it('denial redirects with error=access_denied; a decided request cannot be decided again', async () => {
      const start = await org.owner.http
        .get(`/api/oauth/authorize?${authorizeQuery(client, RESOURCE, pkce().challenge)}`)
        .set('accept', 'application/json')
        .expect(200);
      const res = await org.owner.http.post('/api/oauth/consent').send({ authorization_id: start.body.authorization_id, approve: false }).expect(302);
      const loc = new URL(res.headers.location);
      expect(loc.searchParams.get('error')).toBe('access_denied');
      expect(loc.searchParams.get('state')).toBe('st-1');
      expect(loc.searchParams.get('code')).toBeNull();
      const again = await org.owner.http
        .post('/api/oauth/consent')
        .send({ authorization_id: start.body.authorization_id, approve: true, agent_ids: [agent.id] })
        .expect(409);
      expect(again.body.code).toBe('authorization_closed');
    });

    it('refuses agents the human cannot manage, another human’s request, bad bodies and non-humans', async () => {
      const start = await org.owner.http
        .get(`/api/oauth/authorize?${authorizeQuery(client, RESOURCE, pkce().challenge)}`)
        .set('accept', 'application/json')
        .expect(200);
      const id = start.body.authorization_id;
      const otherOrg = await newOrg(t);
      const foreign = await newAgent(t, otherOrg, { role: 'member' });
      expect(
        (
          await org.owner.http
            .post('/api/oauth/consent')
            .send({ authorization_id: id, approve: true, agent_ids: [foreign.id] })
            .expect(404)
        ).body.code,
      ).toBe('not_found');
      await otherOrg.owner.http
        .post('/api/oauth/consent')
        .send({ authorization_id: id, approve: true, agent_ids: [foreign.id] })
        .expect(404);
      await org.owner.http.post('/api/oauth/consent').send({ authorization_id: id, approve: true, agent_ids: [] }).expect(400);
      await org.owner.http.post('/api/oauth/consent').send({ authorization_id: id, approve: 'yes' }).expect(400);
      await org.owner.http.post('/api/oauth/consent').send({ authorization_id: 'nope', approve: false }).expect(400);
      await bearer(t, agent.key).post('/api/oauth/consent').send({ authorization_id: id, approve: false }).expect(403);
      await t.http().post('/api/oauth/consent').send({ authorization_id: id, approve: false }).expect(401);
      // a member who does not manage the agent cannot hand it out
      const member: TestUser = await newUser(t, 'member');
      await addMember(t, org, member, 'member');
      const s2 = await member.http
        .get(`/api/oauth/authorize?${authorizeQuery(client, RESOURCE, pkce().challenge)}`)
        .set('accept', 'application/json')
        .expect(200);
      expect(s2.body.agents).toEqual([]);
      await member.http
        .post('/api/oauth/consent')
        .send({ authorization_id: s2.body.authorization_id, approve: true, agent_ids: [agent.id] })
        .expect(404);
    });
  });

  describe('tokens', () => {
    const exchange = (c: { code: string; verifier: string }, patch: Record<string, string> = {}) =>
      tokenRequest(t, ip, {
        grant_type: 'authorization_code',
        code: c.code,
        redirect_uri: REDIRECT,
        client_id: client.client_id,
        code_verifier: c.verifier,
        resource: RESOURCE,
        ...patch,
      });

    it('exchanges a code once (PKCE S256); the token acts as the agent; a second use revokes what it produced', async () => {
      const c = await consentFor(org.owner, client, RESOURCE, [agent.id]);
      const res = await exchange(c).expect(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toEqual({
        access_token: expect.stringMatching(/^mcp_at_/),
        token_type: 'Bearer',
        expires_in: 3600,
        refresh_token: expect.stringMatching(/^mcp_rt_/),
      });
      const me = (await withToken(res.body.access_token).get('/api/auth/me').expect(200)).body.auth;
      expect(me).toMatchObject({ type: 'agent', agentId: agent.id, orgId: org.id });
      expect(me.oauth).toMatchObject({ resource: RESOURCE, client: { client_id: client.client_id }, consented_by: { user_id: org.owner.userId } });
      const text = JSON.stringify(me);
      expect(text).not.toContain(res.body.access_token);
      expect(text).not.toContain(res.body.refresh_token);
      const again = await exchange(c).expect(400);
      expect(again.body).toMatchObject({ error: 'invalid_grant', code: 'invalid_grant' });
      await withToken(res.body.access_token).get('/api/auth/me').expect(401);
    });

    it('API-key agents have no oauth provenance', async () => {
      const me = (await bearer(t, agent.key).get('/api/auth/me').expect(200)).body.auth;
      expect(me).not.toHaveProperty('oauth');
    });

    it.each([
      ['a wrong code_verifier', { code_verifier: 'x'.repeat(50) }, 400, 'invalid_grant'],
      ['another redirect_uri', { redirect_uri: 'http://127.0.0.1:53682/other' }, 400, 'invalid_grant'],
      ['another resource', { resource: 'https://other.example.com/mcp' }, 400, 'invalid_target'],
      ['an unknown client', { client_id: randomUUID() }, 401, 'invalid_client'],
      ['a made-up code', { code: 'made-up' }, 400, 'invalid_grant'],
      ['no code_verifier', { code_verifier: '' }, 400, 'invalid_request'],
      ['an unsupported grant type', { grant_type: 'password' }, 400, 'unsupported_grant_type'],
    ])('refuses %s', async (_what, patch, status, error) => {
      const c = await consentFor(org.owner, client, RESOURCE, [agent.id]);
      const res = await exchange(c, patch).expect(status);
      expect(res.body).toMatchObject({ error, code: error });
    });

    it('refuses an expired code and an expired access token', async () => {
      const c = await consentFor(org.owner, client, RESOURCE, [agent.id]);
      await t.db.query(
        `UPDATE oauth_codes SET expires_at = created_at + interval '1 millisecond' WHERE grant_id IN (SELECT grant_id FROM oauth_codes WHERE used_at IS NULL)`,
      );
      expect((await exchange(c).expect(400)).body.error).toBe('invalid_grant');
      const tk = await tokensFor(t, ip, client, RESOURCE, org.owner, [agent.id]);
      await withToken(tk.access_token).get('/api/auth/me').expect(200);
      await t.db.query(`UPDATE oauth_tokens SET expires_at = created_at + interval '1 millisecond' WHERE kind = 'access'`);
      await withToken(tk.access_token).get('/api/auth/me').expect(401);
    });

    it('rotates refresh tokens; replaying a used one revokes the connection', async () => {
      const tk = await tokensFor(t, ip, client, RESOURCE, org.owner, [agent.id]);
      const refresh = (token: string) =>
        tokenRequest(t, ip, { grant_type: 'refresh_token', refresh_token: token, client_id: client.client_id, resource: RESOURCE });
      const next = (await refresh(tk.refresh_token).expect(200)).body;
      expect(next.refresh_token).not.toBe(tk.refresh_token);
      await withToken(next.access_token).get('/api/oauth/agent-profiles').expect(200);
      expect((await refresh(tk.refresh_token).expect(400)).body.error).toBe('invalid_grant');
      await withToken(next.access_token).get('/api/oauth/agent-profiles').expect(401);
      await refresh(next.refresh_token).expect(400);
    });

    it('a token bound to another resource is not accepted here', async () => {
      const tk = await tokensFor(t, ip, client, RESOURCE, org.owner, [agent.id]);
      await withToken(tk.access_token).get('/api/auth/me').expect(200);
      // the same token as if issued for another service's resource
      const hash = (await import('node:crypto')).createHash('sha256').update(tk.access_token).digest();
      await t.db.query(`UPDATE oauth_tokens SET resource = 'https://other.example.com/mcp' WHERE token_hash = $1`, [hash]);
      await withToken(tk.access_token).get('/api/auth/me').expect(401);
      await withToken(tk.access_token).get('/api/oauth/agent-profiles').expect(401);
    });

    it('revocation (RFC 7009): 200 for any token; a revoked access token is refused', async () => {
      const tk = await tokensFor(t, ip, client, RESOURCE, org.owner, [agent.id]);
      await t.http().post('/api/oauth/revoke').type('form').send(`token=unknown&client_id=${client.client_id}`).expect(200);
      await t.http().post('/api/oauth/revoke').type('form').send(`token=${tk.access_token}&client_id=${client.client_id}`).expect(200);
      await withToken(tk.access_token).get('/api/auth/me').expect(401);
      await t.http().post('/api/oauth/revoke').type('form').send('client_id=x').expect(400);
    });

    it('form bodies are accepted only by the OAuth form endpoints', async () => {
      await t.http().post('/api/auth/login').type('form').send('email=a@b.c&password=x').expect(415);
    });
  });

  describe('agent profiles and connections', () => {
    it('lists usable profiles with live project access; API keys and anonymous callers are refused', async () => {
      const tk = await tokensFor(t, ip, client, RESOURCE, org.owner, [agent.id]);
      const b = (await withToken(tk.access_token).get('/api/oauth/agent-profiles').expect(200)).body;
      expect(b.resource).toBe(RESOURCE);
      expect(b.profiles).toHaveLength(1);
      expect(b.profiles[0]).toMatchObject({ profile_ref: expect.stringMatching(/^[0-9a-f-]{36}$/), organization: { id: org.id }, designation: 'organization' });
      for (const p of b.profiles[0].projects) expect(['view', 'edit', 'admin']).toContain(p.access_level);
      expect(b.profiles[0].projects.length).toBeGreaterThan(0);
      expect(JSON.stringify(b)).not.toContain(tk.access_token);
      expect((await bearer(t, agent.key).get('/api/oauth/agent-profiles').expect(400)).body.code).toBe('profile_selector_not_supported');
      expect((await t.http().get('/api/oauth/agent-profiles').expect(401)).body.code).toBe('unauthorized');
      expect(
        (
          await withToken('mcp_at_' + 'A'.repeat(43))
            .get('/api/oauth/agent-profiles')
            .expect(401)
        ).body.code,
      ).toBe('unauthorized');
    });

    it('several agents: REST calls select one with X-Profile-Ref (profile_required / invalid_profile otherwise)', async () => {
      const tk = await tokensFor(t, ip, client, RESOURCE, org.owner, [agent.id, agent2.id]);
      const profiles = (await withToken(tk.access_token).get('/api/oauth/agent-profiles').expect(200)).body.profiles;
      expect(profiles).toHaveLength(2);
      expect((await withToken(tk.access_token).get('/api/auth/me').expect(400)).body.code).toBe('profile_required');
      const p2 = profiles.find((p: { display_name: string; profile_ref: string }) => p.profile_ref && p.display_name)!;
      const me = (await withToken(tk.access_token).get('/api/auth/me').set('x-profile-ref', p2.profile_ref).expect(200)).body.auth;
      expect([agent.id, agent2.id]).toContain(me.agentId);
      expect(me.oauth.profile_ref).toBe(p2.profile_ref);
      expect((await withToken(tk.access_token).get('/api/auth/me').set('x-profile-ref', randomUUID()).expect(400)).body.code).toBe('invalid_profile');
      expect((await withToken(tk.access_token).get('/api/auth/me').set('x-profile-ref', 'nope').expect(400)).body.code).toBe('invalid_profile');
    });

    it('a revoked agent leaves the connection without profiles (no_profiles_authorized), on the next request', async () => {
      const temp = await newAgent(t, org, { role: 'member' });
      const tk = await tokensFor(t, ip, client, RESOURCE, org.owner, [temp.id]);
      await withToken(tk.access_token).get('/api/oauth/agent-profiles').expect(200);
      await org.owner.http.delete(`/api/orgs/${org.id}/agents/${temp.id}`).expect(200);
      expect((await withToken(tk.access_token).get('/api/oauth/agent-profiles').expect(403)).body.code).toBe('no_profiles_authorized');
      expect((await withToken(tk.access_token).get('/api/auth/me').expect(403)).body.code).toBe('no_profiles_authorized');
    });

    it('the human lists and revokes connections; revocation ends access on the next request', async () => {
      const tk = await tokensFor(t, ip, client, RESOURCE, org.owner, [agent.id]);
      const list = (await org.owner.http.get('/api/oauth/connections').expect(200)).body.connections;
      expect(list.length).toBeGreaterThan(0);
      expect(JSON.stringify(list)).not.toContain(tk.access_token);
      const ref = (await withToken(tk.access_token).get('/api/oauth/agent-profiles').expect(200)).body.profiles[0].profile_ref;
      const conn = list.find((c: { agents: Array<{ profile_ref: string }> }) => c.agents.some((a) => a.profile_ref === ref));
      expect(conn).toMatchObject({ client: { client_id: client.client_id }, resource: RESOURCE });
      const stranger = await newUser(t, 'stranger');
      await stranger.http.delete(`/api/oauth/connections/${conn.id}`).expect(404);
      await bearer(t, agent.key).delete(`/api/oauth/connections/${conn.id}`).expect(403);
      await org.owner.http.delete(`/api/oauth/connections/${conn.id}`).expect(200);
      await withToken(tk.access_token).get('/api/oauth/agent-profiles').expect(401);
      await org.owner.http.delete(`/api/oauth/connections/${conn.id}`).expect(404);
      await org.owner.http.delete('/api/oauth/connections/not-a-uuid').expect(404);
    });
  });

  describe('rate limits', () => {
    let limited: TestApp;
    beforeAll(async () => {
      limited = await startTestApp({
        SERVICE_PUBLIC_URL: PUBLIC,
        TRUST_PROXY: 'loopback',
        OAUTH_REGISTRATION_RATE_LIMIT_PER_HOUR: '2',
        OAUTH_TOKEN_RATE_LIMIT_PER_MINUTE: '2',
      });
    });
    afterAll(() => limited.close());

    it('limits registrations per address: 429 RATE_LIMITED with Retry-After', async () => {
      const a = freshIp();
      await registerClient(limited, a);
      await registerClient(limited, a);
      const res = await limited
        .http()
        .post('/api/oauth/register')
        .set('x-forwarded-for', a)
        .send({ redirect_uris: [REDIRECT] })
        .expect(429);
      expect(res.body.code).toBe('RATE_LIMITED');
      expect(res.headers['retry-after']).toBeDefined();
      await registerClient(limited, freshIp());
    });

    it('limits token requests per address', async () => {
      const a = freshIp();
      const bad = { grant_type: 'refresh_token', refresh_token: 'x', client_id: client.client_id };
      await tokenRequest(limited, a, bad).expect(400);
      await tokenRequest(limited, a, bad).expect(400);
      expect((await tokenRequest(limited, a, bad).expect(429)).body.code).toBe('RATE_LIMITED');
    });
  });
});
