import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { bearer, newAgent, newOrg, newProject, type TestOrg } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';
import { authorizeQuery, freshIp, pkce, REDIRECT } from '../support/oauth';

type ToolResult = { isError?: boolean; structuredContent?: Record<string, any>; content: Array<{ type: string; text?: string }> };

/**
 * The MCP endpoint end to end, over real HTTP (the app listens on a port from listen(0)): the whole
 * OAuth flow with a plain HTTP client, then the MCP SDK's own client calling tools; API keys;
 * tool errors with the REST codes; refresh rotation and replay; connection revocation.
 */
describe('mcp', () => {
  let t: TestApp;
  let base: string;
  let resource: string;
  let org: TestOrg;
  let project: { id: string };
  let agent: { id: string; key: string };
  let agent2: { id: string; key: string };
  let clientId: string;
  const ip = freshIp();
  const open: Client[] = [];

  async function connect(token: string | null): Promise<Client> {
    const client = new Client({ name: 'e2e', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : {},
    });
    await client.connect(transport);
    open.push(client);
    return client;
  }
  const call = async (c: Client, name: string, args: Record<string, unknown>): Promise<ToolResult> =>
    (await c.callTool({ name, arguments: args })) as ToolResult;
  const form = (path: string, fields: Record<string, string>) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip },
      body: new URLSearchParams(fields).toString(),
    });

  /** Registration was done once; authorize + consent (human session over HTTP) + token exchange with the real HTTP client. */
  async function oauthTokens(agentIds: string[]): Promise<{ access_token: string; refresh_token: string }> {
    const p = pkce();
    const start = await org.owner.http
      .get(`/api/oauth/authorize?${authorizeQuery({ client_id: clientId }, resource, p.challenge)}`)
      .set('accept', 'application/json')
      .expect(200);
    const consent = await org.owner.http
      .post('/api/oauth/consent')
      .send({ authorization_id: start.body.authorization_id, approve: true, agent_ids: agentIds })
      .expect(302);
    const code = new URL(consent.headers.location).searchParams.get('code')!;
    const res = await form('/api/oauth/token', {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: clientId,
      code_verifier: p.verifier,
      resource,
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { access_token: string; refresh_token: string };
  }

  beforeAll(async () => {
    t = await startTestApp({ TRUST_PROXY: 'loopback' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    org = await newOrg(t);
    project = await newProject(t, org);
    agent = await newAgent(t, org, { role: 'member', name: 'MCP agent one' });
    agent2 = await newAgent(t, org, { role: 'member', name: 'MCP agent two' });
    // discovery and registration with a plain HTTP client
    const prm = (await (await fetch(`${base}/.well-known/oauth-protected-resource`)).json()) as { resource: string; authorization_servers: string[] };
    resource = prm.resource;
    expect(resource).toBe(`${base}/mcp`);
    const as = (await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json()) as { registration_endpoint: string };
    const reg = await fetch(as.registration_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
      body: JSON.stringify({ client_name: 'MCP e2e', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }),
    });
    expect(reg.status).toBe(201);
    clientId = ((await reg.json()) as { client_id: string }).client_id;
  });
  afterAll(async () => {
    for (const c of open) await c.close().catch(() => undefined);
    await t.close();
  });

  it('refuses a missing or unknown bearer with 401 naming the protected-resource metadata', async () => {
    for (const auth of [undefined, 'Bearer mcp_at_' + 'B'.repeat(43), 'Bearer sk_service_' + 'C'.repeat(43)]) {
      const res = await fetch(`${base}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(auth ? { authorization: auth } : {}) },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
        }),
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${base}/.well-known/oauth-protected-resource"`);
      expect(await res.json()).toEqual({ error: 'Unauthorized', code: 'unauthorized' });
    }
    await expect(connect(null)).rejects.toThrow();
  });

  it('answers GET and DELETE with 405 (stateless server)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${base}/mcp`, { method, headers: { authorization: `Bearer ${agent.key}`, accept: 'text/event-stream' } });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
  });

  it('the whole flow: OAuth token, tools/list, create through MCP visible through REST, list, refresh rotation, replay revokes', async () => {
    const tokens = await oauthTokens([agent.id]);
    const c = await connect(tokens.access_token);
    expect(c.getServerCapabilities()?.tools).toBeDefined();
    const { tools } = await c.listTools();
    const names = tools.map((x) => x.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'list_issues',
        'get_issue',
        'create_issue',
        'update_issue',
        'add_comment',
        'list_comments',
        'add_dependency',
        'remove_dependency',
        'list_initiatives',
        'link_issue_to_initiative',
        'list_targets',
        'update_target',
        'list_milestones',
        'heartbeat',
        'heartbeat_ack',
        'create_execution',
        'transition_execution',
        'request_attention',
        'acknowledge_attention',
      ]),
    );
    for (const tool of tools) expect(tool.inputSchema).toMatchObject({ type: 'object', properties: expect.objectContaining({ org_id: expect.any(Object) }) });
    // owner grants the agent edit on the project (members read everything, write through grants)
    await org.owner.http.post(`/api/orgs/${org.id}/projects/${project.id}/members`).send({ memberId: agent.id, accessLevel: 'edit' }).expect(201);

    const created = await call(c, 'create_issue', { org_id: org.id, project_id: project.id, title: 'Made through MCP', priority: 1 });
    expect(created.isError).toBeFalsy();
    const issue = created.structuredContent!.issue;
    const viaRest = await bearer(t, agent.key).get(`/api/orgs/${org.id}/issues/${issue.id}`).expect(200);
    expect(viaRest.body.issue).toMatchObject({ title: 'Made through MCP', priority: 1 });
    expect(JSON.parse(created.content[0].text!).issue.id).toBe(issue.id);

    const listed = await call(c, 'list_issues', { q: 'Made through MCP' });
    expect(listed.structuredContent!.issues.map((i: { id: string }) => i.id)).toContain(issue.id);
    const updated = await call(c, 'update_issue', { issue: issue.id, status: 'in_progress' });
    expect(updated.isError).toBeFalsy();
    const commented = await call(c, 'add_comment', { issue: issue.id, body: 'from MCP' });
    expect(commented.isError).toBeFalsy();
    expect((await call(c, 'list_comments', { issue: issue.id })).structuredContent!.comments).toHaveLength(1);
    expect((await call(c, 'list_milestones', { project_id: project.id })).structuredContent).toHaveProperty('milestones');

    // the heartbeat through MCP is the REST heartbeat: same envelope, cursors acknowledged through heartbeat_ack
    const beat = await call(c, 'heartbeat', {});
    expect(beat.isError).toBeFalsy();
    expect(beat.structuredContent).toMatchObject({ recommended_action: expect.any(Object), page: expect.objectContaining({ has_more: false }) });
    const ackCursor = (beat.structuredContent!.page as { ack_cursor: string }).ack_cursor;
    expect(ackCursor).toEqual(expect.any(String));
    expect((await call(c, 'heartbeat_ack', { cursor: ackCursor })).isError).toBeFalsy();
    const delta = await call(c, 'heartbeat', { since: ackCursor });
    expect(delta.isError).toBeFalsy();
    expect((await call(c, 'heartbeat', { cursor: 'not-a-cursor' })).structuredContent).toMatchObject({ status: 400 });
    expect((await call(c, 'heartbeat', { max_bytes: 99_999 })).isError).toBe(true);

    // refresh with rotation: the new access token works over MCP; replaying the old refresh token revokes the connection
    const refresh = (token: string) => form('/api/oauth/token', { grant_type: 'refresh_token', refresh_token: token, client_id: clientId, resource });
    const r1 = await refresh(tokens.refresh_token);
    expect(r1.status).toBe(200);
    const next = (await r1.json()) as { access_token: string };
    const c2 = await connect(next.access_token);
    expect((await call(c2, 'list_issues', {})).isError).toBeFalsy();
    const replay = await refresh(tokens.refresh_token);
    expect(replay.status).toBe(400);
    expect(((await replay.json()) as { error: string }).error).toBe('invalid_grant');
    await expect(call(c2, 'list_issues', {})).rejects.toThrow();
    await expect(connect(next.access_token)).rejects.toThrow();
  });

  it('executions and attention through MCP: create, run, ask a human, see the answer in the heartbeat, acknowledge', async () => {
    const c = await connect(agent.key);
    await org.owner.http
      .post(`/api/orgs/${org.id}/projects/${project.id}/members`)
      .send({ memberId: agent.id, accessLevel: 'edit' })
      .then((r) => expect([201, 409]).toContain(r.status));
    const issue = (await bearer(t, agent.key).post(`/api/orgs/${org.id}/issues`).send({ title: 'MCP execution', projectId: project.id }).expect(201)).body
      .issue;
    const created = await call(c, 'create_execution', { issue: issue.id, idempotency_key: 'mcp-ex-1' });
    expect(created.isError).toBeFalsy();
    const ex = created.structuredContent!.execution;
    expect(ex).toMatchObject({ issue_id: issue.id, state: 'assigned', state_version: 1 });
    // a replay with the same key answers the same execution
    expect((await call(c, 'create_execution', { issue: issue.id, idempotency_key: 'mcp-ex-1' })).structuredContent!.execution.id).toBe(ex.id);
    const running = await call(c, 'transition_execution', {
      execution_id: ex.id,
      expected_state_version: 1,
      to_state: 'running',
      idempotency_key: 'mcp-ex-run',
    });
    expect(running.structuredContent!.execution).toMatchObject({ state: 'running', state_version: 2 });
    const stale = await call(c, 'transition_execution', {
      execution_id: ex.id,
      expected_state_version: 1,
      to_state: 'completed',
      idempotency_key: 'mcp-ex-stale',
    });
    expect(stale.structuredContent).toMatchObject({ code: 'STALE_STATE_VERSION', status: 409 });
    const asked = await call(c, 'request_attention', {
      execution_id: ex.id,
      idempotency_key: 'mcp-att-1',
      title: 'Which database?',
      question: 'Postgres or MySQL?',
    });
    expect(asked.isError).toBeFalsy();
    const item = asked.structuredContent!.attention_item;
    await org.owner.http
      .post(`/api/orgs/${org.id}/attention-items/${item.id}/resolve`)
      .send({ answer: 'Postgres', expected_version: item.version })
      .expect(200);
    const beat = await call(c, 'heartbeat', {});
    const resolved = (beat.structuredContent!.execution_attention as { resolved_unread: Array<{ id: string; answer: string; version: number }> })
      .resolved_unread;
    expect(resolved).toEqual([expect.objectContaining({ id: item.id, answer: 'Postgres' })]);
    const ack = await call(c, 'acknowledge_attention', { item_id: item.id, expected_version: resolved[0].version });
    expect(ack.isError).toBeFalsy();
    const after = await call(c, 'heartbeat', {});
    expect((after.structuredContent!.execution_attention as { resolved_unread: unknown[] }).resolved_unread).toEqual([]);
    // bad input is a tool error, never a crashed session
    expect(
      (await call(c, 'transition_execution', { execution_id: 'nope', expected_state_version: 1, to_state: 'running', idempotency_key: 'x' })).isError,
    ).toBe(true);
  });

  it('tool errors carry the REST error code and never end the session', async () => {
    const c = await connect(agent.key);
    const bad = await call(c, 'create_issue', { title: 42 });
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent).toMatchObject({ code: 'validation_failed', status: 400 });
    const extra = await call(c, 'list_issues', { nope: true });
    expect(extra.structuredContent).toMatchObject({ code: 'validation_failed' });
    const other = await newOrg(t);
    const foreign = await call(c, 'list_issues', { org_id: other.id });
    expect(foreign.structuredContent).toMatchObject({ code: 'not_found', status: 404 });
    const missing = await call(c, 'get_issue', { issue: '999999' });
    expect(missing.structuredContent).toMatchObject({ code: 'reference_not_found', status: 404 });
    const hidden = await call(c, 'list_milestones', { project_id: '00000000-0000-4000-8000-000000000000' });
    expect(hidden.structuredContent).toMatchObject({ status: 404 });
    const selector = await call(c, 'list_issues', { profile_ref: '00000000-0000-4000-8000-000000000000' });
    expect(selector.structuredContent).toMatchObject({ code: 'profile_selector_not_supported' });
    await expect(c.callTool({ name: 'no_such_tool', arguments: {} })).resolves.toMatchObject({ isError: true });
    // the session still works
    expect((await call(c, 'list_issues', {})).isError).toBeFalsy();
  });

  it('a connection covering several agents needs profile_ref on actor calls', async () => {
    const tokens = await oauthTokens([agent.id, agent2.id]);
    const profiles = (await bearer(t, tokens.access_token).get('/api/oauth/agent-profiles').expect(200)).body.profiles as Array<{
      profile_ref: string;
      display_name: string;
    }>;
    const c = await connect(tokens.access_token);
    expect((await call(c, 'list_issues', {})).structuredContent).toMatchObject({ code: 'profile_required', status: 400 });
    expect((await call(c, 'list_issues', { profile_ref: '00000000-0000-4000-8000-000000000000' })).structuredContent).toMatchObject({
      code: 'invalid_profile',
    });
    const two = profiles.find((p) => p.display_name === 'MCP agent two')!;
    const created = await call(c, 'create_issue', { profile_ref: two.profile_ref, title: 'Projectless by agent two' });
    expect(created.isError).toBeFalsy();
    const detail = await bearer(t, agent.key).get(`/api/orgs/${org.id}/issues/${created.structuredContent!.issue.id}`).expect(200);
    expect(JSON.stringify(detail.body.issue.creator ?? detail.body.issue)).toContain(agent2.id);
  });

  it('revoking the connection ends MCP access on the next request', async () => {
    const tokens = await oauthTokens([agent.id]);
    const c = await connect(tokens.access_token);
    expect((await call(c, 'list_issues', {})).isError).toBeFalsy();
    const conns = (await org.owner.http.get('/api/oauth/connections').expect(200)).body.connections as Array<{
      id: string;
      agents: Array<{ profile_ref: string }>;
    }>;
    const ref = (await bearer(t, tokens.access_token).get('/api/oauth/agent-profiles').expect(200)).body.profiles[0].profile_ref;
    const conn = conns.find((x) => x.agents.some((a) => a.profile_ref === ref))!;
    await org.owner.http.delete(`/api/oauth/connections/${conn.id}`).expect(200);
    await expect(call(c, 'list_issues', {})).rejects.toThrow();
  });
});
