import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../support/app';
import { bearer, newAgent, newOrg, newProject, type TestOrg, type TestUser } from '../support/factories';
import { type GithubServer, startGithubServer } from '../support/github-server';
import { insertIssue, workTrackingWorld } from '../support/issues';
import { DataSource } from 'typeorm';
import { DomainEvents } from '../../src/common/events/domain-events';
import { GithubIdentitySweep } from '../../src/modules/github/github-identity.sweep';
import { GithubProvider } from '../../src/modules/github/github-provider.service';
import { PrLinksRepository } from '../../src/modules/github/pr-links.repository';

/**
 * The GitHub integration against a real local HTTP server playing GitHub (test/support/github-server.ts):
 * connections (live token validation, sealed write-only secrets, owner/admin), PR links (authorization
 * before parsing, canonical URLs only, enrichment, 201 whatever the provider does, identity
 * reconciliation), external references (live numeric ids or 422), the signed webhook receiver and
 * the delivery context. A provider that fails, answers garbage or times out never makes a 5xx.
 */
describe('github integration', () => {
  let t: TestApp;
  let gh: GithubServer;
  let org: TestOrg;
  let other: TestOrg;
  let member: TestUser;
  let guest: TestUser;
  let editor: TestUser;
  let editorId: string;
  let guestId: string;
  let proj: { id: string };
  let hidden: { id: string };
  const o = (p: string) => `/api/orgs/${org.id}${p}`;
  const sha = () => randomBytes(20).toString('hex');
  const TOKEN = `ghp_${randomBytes(12).toString('hex')}`;
  const SECRET = `whsec-${randomBytes(12).toString('hex')}`;
  let conn: { id: string };
  let prN = 100;
  const pull = (over: Partial<Parameters<GithubServer['addPull']>[0]> = {}) => {
    const p = { owner: 'octo', repo: 'widgets', number: ++prN, id: 5_000_000 + prN, repoId: 777, head: sha(), title: `PR ${prN}`, ...over };
    gh.addPull(p);
    return p;
  };
  const prUrl = (n: number, repo = 'widgets') => `https://github.com/octo/${repo}/pull/${n}`;
  const sign = (body: string, secret = SECRET) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
  const hook = (id: string, event: string, payload: unknown, opts: { secret?: string; delivery?: string; signature?: string | null } = {}) => {
    const body = JSON.stringify(payload);
    const r = t.http().post(`/api/webhooks/github/${id}`).set('content-type', 'application/json').set('x-github-event', event);
    r.set('x-github-delivery', opts.delivery ?? randomUUID());
    if (opts.signature !== null) r.set('x-hub-signature-256', opts.signature ?? sign(body, opts.secret));
    return r.send(body);
  };

  beforeAll(async () => {
    gh = await startGithubServer();
    gh.tokens.add(TOKEN);
    t = await startTestApp({ SERVICE_GITHUB_API_URL: gh.url, SERVICE_GITHUB_TIMEOUT_MS: '300', SERVICE_GITHUB_REQUIRED_CHECKS_READ_ENABLED: '1' });
    ({ org, other, member, guest, editor, editorId, guestId, proj, hidden } = await workTrackingWorld(t));
  });
  afterAll(async () => {
    await t?.close();
    await gh?.close();
  });
  afterEach(() => {
    gh.fault = null;
    gh.faultPath = null;
  });

  describe('connections', () => {
    it('refuses a token GitHub refuses (422 github_token_invalid) and a failing provider (422 github_unavailable), never a 5xx', async () => {
      const bad = await org.owner.http.post(o('/github-connections')).send({ token: 'ghp_wrong', webhook_secret: SECRET }).expect(422);
      expect(bad.body.code).toBe('github_token_invalid');
      for (const fault of ['error500', 'garbage', 'hang', 'rate_limit'] as const) {
        gh.fault = fault;
        const res = await org.owner.http.post(o('/github-connections')).send({ token: TOKEN, webhook_secret: SECRET });
        expect([res.status, res.body.code]).toEqual([422, 'github_unavailable']);
      }
      expect((await org.owner.http.get(o('/github-connections')).expect(200)).body.connections).toEqual([]);
    });

    it('needs an organization owner or admin; other organizations see 404', async () => {
      await member.http.post(o('/github-connections')).send({ token: TOKEN, webhook_secret: SECRET }).expect(403);
      await member.http.get(o('/github-connections')).expect(403);
      await other.owner.http.get(o('/github-connections')).expect(404);
      await org.owner.http.post(o('/github-connections')).send({ token: TOKEN }).expect(400);
    });

    it('creates a connection with sealed write-only secrets, lists, updates the verification mode and deletes', async () => {
      const res = await org.owner.http.post(o('/github-connections')).send({ token: TOKEN, webhookSecret: SECRET }).expect(201);
      conn = res.body.connection;
      expect(conn).toMatchObject({ provider: 'github', account_login: 'octo-bot', verification_mode: 'off', enabled: true, token_configured: true });
      expect(JSON.stringify(res.body)).not.toContain(TOKEN);
      expect(JSON.stringify(res.body)).not.toContain(SECRET);
      const rows = await t.db.query('SELECT token_sealed, webhook_secret_sealed FROM github_connections WHERE org_id = $1', [org.id]);
      expect(JSON.stringify(rows)).not.toContain(TOKEN);
      expect(JSON.stringify(rows)).not.toContain(SECRET);
      const list = await org.owner.http.get(o('/github-connections')).expect(200);
      expect(list.body.connections.map((c: any) => c.id)).toEqual([conn.id]);
      expect(JSON.stringify(list.body)).not.toContain(TOKEN);
      await member.http
        .patch(o(`/github-connections/${conn.id}`))
        .send({ verification_mode: 'attention' })
        .expect(403);
      await org.owner.http
        .patch(o(`/github-connections/${conn.id}`))
        .send({ verification_mode: 'sometimes' })
        .expect(400);
      // a second connection can be deleted
      const second = await org.owner.http.post(o('/github-connections')).send({ token: TOKEN, webhook_secret: SECRET }).expect(201);
      await org.owner.http.delete(o(`/github-connections/${second.body.connection.id}`)).expect(200);
      await org.owner.http.delete(o(`/github-connections/${second.body.connection.id}`)).expect(404);
    });
  });

  describe('pull-request links', () => {
    it('authorizes before parsing: read-only 403, unreadable or foreign 404', async () => {
      const issue = await insertIssue(t, org.id, proj.id);
      const hiddenIssue = await insertIssue(t, org.id, hidden.id);
      await member.http
        .post(o(`/issues/${issue.id}/pr-links`))
        .send({ url: 'not a url' })
        .expect(403);
      await member.http
        .post(o(`/issues/${issue.id}/pr-links`))
        .send({})
        .expect(403);
      await guest.http
        .post(o(`/issues/${hiddenIssue.id}/pr-links`))
        .send({ url: 'not a url' })
        .expect(404);
      await other.owner.http
        .post(o(`/issues/${issue.id}/pr-links`))
        .send({ url: prUrl(1) })
        .expect(404);
      await org.owner.http
        .post(o(`/issues/${randomUUID()}/pr-links`))
        .send({ url: prUrl(1) })
        .expect(404);
      await org.owner.http
        .post(o('/issues/not-a-uuid/pr-links'))
        .send({ url: prUrl(1) })
        .expect(404);
      expect(gh.requests.filter((r) => r.path.includes('/pulls/1'))).toEqual([]);
    });

    it('accepts only canonical pull-request URLs (400 otherwise)', async () => {
      const issue = await insertIssue(t, org.id, proj.id);
      for (const url of [
        'https://github.com/octo/widgets/issues/5',
        'https://gitlab.com/octo/widgets/-/merge_requests/3',
        'javascript:alert(1)',
        'not a url',
        42,
        null,
      ]) {
        const res = await org.owner.http
          .post(o(`/issues/${issue.id}/pr-links`))
          .send({ url })
          .expect(400);
        expect(res.body.code).toBe('invalid_pr_url');
      }
      await org.owner.http
        .post(o(`/issues/${issue.id}/pr-links`))
        .send({})
        .expect(400);
    });

    it('enriches from the provider and returns every field; readers list it; the same PR again answers the link', async () => {
      const p = pull({ title: 'Add widgets', base: sha(), baseRef: 'main' });
      const issue = await insertIssue(t, org.id, proj.id);
      const res = await org.owner.http
        .post(o(`/issues/${issue.id}/pr-links`))
        .send({ url: `${prUrl(p.number)}/files` })
        .expect(201);
      expect(res.body.pr_link).toEqual({
        id: expect.any(String),
        issue_id: issue.id,
        pr_number: p.number,
        pr_id: p.id,
        github_repo: 'octo/widgets',
        github_repository_id: 777,
        external_reference_id: null,
        pr_url: prUrl(p.number),
        pr_title: 'Add widgets',
        pr_status: 'open',
        head_sha: p.head,
        base_ref: 'main',
        base_sha: p.base,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      const again = await org.owner.http
        .post(o(`/issues/${issue.id}/pr-links`))
        .send({ url: prUrl(p.number) })
        .expect(201);
      expect(again.body.pr_link.id).toBe(res.body.pr_link.id);
      for (const who of [member, guest]) {
        const list = await who.http.get(o(`/issues/${issue.id}/pr-links`)).expect(200);
        expect(list.body.pr_links.map((l: any) => l.id)).toEqual([res.body.pr_link.id]);
      }
      await guest.http.delete(o(`/issues/${issue.id}/pr-links/${res.body.pr_link.id}`)).expect(403);
      await org.owner.http.delete(o(`/issues/${issue.id}/pr-links/${res.body.pr_link.id}`)).expect(200);
      expect((await org.owner.http.get(o(`/issues/${issue.id}/pr-links`)).expect(200)).body.pr_links).toEqual([]);
    });

    it('is created (201, identity null) when the provider fails, answers garbage, times out or does not know the PR; the worker reconciles later', async () => {
      const p = pull();
      const issue = await insertIssue(t, org.id, proj.id);
      const faulted: string[] = [];
      for (const fault of ['error500', 'garbage', 'hang'] as const) {
        gh.fault = fault;
        const i = await insertIssue(t, org.id, proj.id);
        faulted.push(i.id);
        const res = await org.owner.http
          .post(o(`/issues/${i.id}/pr-links`))
          .send({ url: prUrl(p.number) })
          .expect(201);
        expect(res.body.pr_link).toMatchObject({ pr_id: null, github_repository_id: null, head_sha: null, pr_status: 'unknown', pr_url: prUrl(p.number) });
      }
      gh.fault = null;
      const unknown = await org.owner.http
        .post(o(`/issues/${issue.id}/pr-links`))
        .send({ url: prUrl(9999, 'nothing-here') })
        .expect(201);
      expect(unknown.body.pr_link).toMatchObject({ pr_id: null, pr_title: 'octo/nothing-here#9999', pr_status: 'unknown' });
      // the sweep (worker) fills the identity once the provider answers
      const later = new Date(Date.now() + 3_600_000);
      const sweep = new GithubIdentitySweep(
        t.app.get(DataSource, { strict: false }),
        t.app.get(DomainEvents, { strict: false }),
        t.app.get(PrLinksRepository, { strict: false }),
        t.app.get(GithubProvider, { strict: false }),
        { now: () => later },
      );
      expect(await sweep.sweep(500)).toBeGreaterThanOrEqual(1);
      const rows = await t.db.query('SELECT pr_id::text, head_sha, pr_status FROM github_pr_links WHERE org_id = $1 AND pr_number = $2', [org.id, p.number]);
      expect(rows).toHaveLength(3);
      for (const r of rows) expect(r).toEqual({ pr_id: String(p.id), head_sha: p.head, pr_status: 'open' });
      // what the provider filled in is each link's `github_pr.updated` timeline entry, by GitHub
      for (const id of faulted) {
        const entries = (await org.owner.http.get(o(`/issues/${id}/activity`)).expect(200)).body.data.filter((e: any) => e.action === 'github_pr.updated');
        expect(entries).toEqual([
          expect.objectContaining({
            actor_id: null,
            metadata: expect.objectContaining({
              changed_fields: ['head_sha', 'pr_status', 'pr_title'],
              changes: expect.objectContaining({ pr_status: { from: 'unknown', to: 'open' } }),
              actor: { display_name: 'GitHub', type: 'automation' },
            }),
          }),
        ]);
      }
    });

    it('projectless issues: non-guests read and write, guests see 404', async () => {
      const p = pull();
      const issue = await insertIssue(t, org.id, null);
      await member.http
        .post(o(`/issues/${issue.id}/pr-links`))
        .send({ url: prUrl(p.number) })
        .expect(201);
      await guest.http.get(o(`/issues/${issue.id}/pr-links`)).expect(404);
    });
  });

  describe('external references', () => {
    it('needs a connection and live numeric ids (422 github_identity_unavailable), stores nothing otherwise', async () => {
      const lonely = await newOrg(t);
      const lonelyIssue = await insertIssue(t, lonely.id, null);
      const p = pull();
      const r1 = await lonely.owner.http
        .post(`/api/orgs/${lonely.id}/issues/${lonelyIssue.id}/external-references`)
        .send({ url: prUrl(p.number) })
        .expect(422);
      expect(r1.body.code).toBe('github_identity_unavailable');
      const issue = await insertIssue(t, org.id, proj.id);
      for (const path of [o(`/issues/${issue.id}/external-references`), o(`/projects/${proj.id}/external-references`)]) {
        expect(
          (
            await org.owner.http
              .post(path)
              .send({ url: prUrl(424242) })
              .expect(422)
          ).body.code,
        ).toBe('github_identity_unavailable');
        gh.fault = 'error500';
        expect(
          (
            await org.owner.http
              .post(path)
              .send({ url: prUrl(p.number) })
              .expect(422)
          ).body.code,
        ).toBe('github_identity_unavailable');
        gh.fault = null;
        expect((await org.owner.http.get(path).expect(200)).body.external_references).toEqual([]);
      }
    });

    it('links a proven pull request to issues and projects; reads need read access, writes edit', async () => {
      const p = pull({ title: 'Proven PR' });
      const issue = await insertIssue(t, org.id, proj.id);
      await org.owner.http
        .post(o(`/issues/${issue.id}/pr-links`))
        .send({ url: prUrl(p.number) })
        .expect(201);
      await member.http
        .post(o(`/issues/${issue.id}/external-references`))
        .send({ url: prUrl(p.number) })
        .expect(403);
      const res = await org.owner.http
        .post(o(`/issues/${issue.id}/external-references`))
        .send({ url: prUrl(p.number) })
        .expect(201);
      expect(res.body.external_reference).toMatchObject({
        target_type: 'issue',
        target_id: issue.id,
        provider: 'github',
        object_type: 'pull_request',
        provenance: 'github_api',
        canonical_url: prUrl(p.number),
        label: 'Proven PR',
        github_repository_id: 777,
        pr_id: p.id,
      });
      const ref = res.body.external_reference;
      const links = await org.owner.http.get(o(`/issues/${issue.id}/pr-links`)).expect(200);
      expect(links.body.pr_links[0].external_reference_id).toBe(ref.external_reference_id);
      await guest.http.get(o(`/issues/${issue.id}/external-references/${ref.id}`)).expect(200);
      const list = await guest.http.get(o(`/issues/${issue.id}/external-references?limit=1&offset=5`)).expect(200);
      expect(list.body.external_references.map((r: any) => r.id)).toEqual([ref.id]);
      // artifact source provenance names the link (the artifacts module's ExternalReferenceLinks port)
      const art = await org.owner.http
        .post(o('/artifacts?projection=source_provenance_v1'))
        .send({
          type: 'decision',
          title: 'From PR',
          content: '<p>x</p>',
          content_format: 'html',
          links: [{ target_type: 'issue', target_id: issue.id }],
          source_external_reference_link_id: ref.id,
        })
        .expect(201);
      expect(art.body.revision.source_reference).toMatchObject({
        external_reference_id: ref.external_reference_id,
        target_type: 'issue',
        target_id: issue.id,
        canonical_url: prUrl(p.number),
        provider: 'github',
        object_type: 'pull_request',
        provenance: 'github_api',
        label: 'Proven PR',
        currently_linked: true,
      });
      const projRef = await org.owner.http
        .post(o(`/projects/${proj.id}/external-references`))
        .send({ url: prUrl(p.number) })
        .expect(201);
      expect(projRef.body.external_reference.external_reference_id).toBe(ref.external_reference_id);
      await guest.http.get(o(`/projects/${hidden.id}/external-references`)).expect(404);
      await other.owner.http.get(o(`/projects/${proj.id}/external-references`)).expect(404);
      await guest.http.delete(o(`/projects/${proj.id}/external-references/${projRef.body.external_reference.id}`)).expect(403);
      await org.owner.http.delete(o(`/projects/${proj.id}/external-references/${projRef.body.external_reference.id}`)).expect(200);
      await org.owner.http.get(o(`/projects/${proj.id}/external-references/${projRef.body.external_reference.id}`)).expect(404);
      await org.owner.http.delete(o(`/issues/${issue.id}/external-references/${ref.id}`)).expect(200);
      const rev = await org.owner.http
        .get(o(`/artifacts/${art.body.artifact.id}/revisions/${art.body.revision.id}?projection=source_provenance_v1`))
        .expect(200);
      expect(rev.body.revision.source_reference).toMatchObject({ external_reference_id: ref.external_reference_id, currently_linked: false });
    });
  });

  describe('webhook receiver', () => {
    it('unknown, malformed or disabled connections are the same 404; bad signatures 401; garbage 400; never a 5xx', async () => {
      for (const id of [randomUUID(), 'not-a-uuid']) {
        const res = await hook(id, 'ping', { zen: 'x' });
        expect(res.status).toBe(404);
      }
      const disabled = (await org.owner.http.post(o('/github-connections')).send({ token: TOKEN, webhook_secret: SECRET }).expect(201)).body.connection;
      await org.owner.http
        .patch(o(`/github-connections/${disabled.id}`))
        .send({ enabled: false })
        .expect(200);
      const off = await hook(disabled.id, 'ping', { zen: 'x' });
      expect([off.status, off.body]).toEqual([404, { error: 'Not found', code: 'not_found' }]);
      await org.owner.http.delete(o(`/github-connections/${disabled.id}`)).expect(200);
      expect((await hook(conn.id, 'ping', { zen: 'x' }, { secret: 'wrong' })).status).toBe(401);
      expect((await hook(conn.id, 'ping', { zen: 'x' }, { signature: null })).status).toBe(401);
      const body = '{not json';
      const res = await t
        .http()
        .post(`/api/webhooks/github/${conn.id}`)
        .set('content-type', 'application/json')
        .set('x-github-event', 'ping')
        .set('x-github-delivery', randomUUID())
        .set('x-hub-signature-256', sign(body))
        .send(body);
      expect(res.status).toBe(400);
      const noDelivery = JSON.stringify({ zen: 'x' });
      const r2 = await t
        .http()
        .post(`/api/webhooks/github/${conn.id}`)
        .set('content-type', 'application/json')
        .set('x-github-event', 'ping')
        .set('x-hub-signature-256', sign(noDelivery))
        .send(noDelivery);
      expect(r2.status).toBe(400);
      // a signature over other bytes
      const payload = JSON.stringify({ zen: 'y' });
      const r3 = await t
        .http()
        .post(`/api/webhooks/github/${conn.id}`)
        .set('content-type', 'application/json')
        .set('x-github-event', 'ping')
        .set('x-github-delivery', randomUUID())
        .set('x-hub-signature-256', sign(payload))
        .send(`${payload} `);
      expect(r3.status).toBe(401);
    });

    it('is idempotent per delivery id; unused events are skipped', async () => {
      const delivery = randomUUID();
      expect((await hook(conn.id, 'ping', { zen: 'z' }, { delivery }).expect(200)).body).toEqual({ accepted: true, duplicate: false });
      expect((await hook(conn.id, 'ping', { zen: 'z' }, { delivery }).expect(200)).body).toEqual({ accepted: true, duplicate: true });
      expect((await hook(conn.id, 'issues', { action: 'opened' }).expect(200)).body).toEqual({ accepted: true, duplicate: false, skipped: true });
    });

    it('keeps PR state, reviews, checks, statuses and workflow runs fresh; a head change makes earlier observations historical', async () => {
      const p = pull({ baseRef: 'main' });
      const issue = await insertIssue(t, org.id, proj.id);
      await org.owner.http
        .post(o(`/issues/${issue.id}/pr-links`))
        .send({ url: prUrl(p.number) })
        .expect(201);
      gh.fault = 'error500'; // the delivery context falls back to webhook observations
      const repository = { id: 777, full_name: 'octo/widgets' };
      await hook(conn.id, 'check_run', {
        action: 'completed',
        repository,
        check_run: {
          id: 31,
          name: 'ci/test',
          status: 'completed',
          conclusion: 'failure',
          head_sha: p.head,
          app: { id: 15 },
          completed_at: new Date().toISOString(),
        },
      }).expect(200);
      await hook(conn.id, 'pull_request_review', {
        action: 'submitted',
        repository,
        pull_request: { number: p.number },
        review: { id: 41, state: 'approved', commit_id: p.head, user: { login: 'rev', id: 9 }, submitted_at: new Date().toISOString() },
      }).expect(200);
      let ctx = (await org.owner.http.get(o(`/issues/${issue.id}/delivery-context`)).expect(200)).body.deliveryContext;
      expect(ctx).toMatchObject({
        head_sha: p.head,
        pr_status: 'open',
        partial: true,
        review: { state: 'approved', approvals: 1 },
        provenance: { source: 'webhook' },
      });
      // the PR moves to a new head and is closed
      const head2 = sha();
      await hook(conn.id, 'pull_request', {
        action: 'synchronize',
        repository,
        pull_request: {
          id: p.id,
          number: p.number,
          state: 'closed',
          title: 'Renamed',
          head: { sha: head2 },
          base: { ref: 'main', sha: sha() },
          updated_at: new Date().toISOString(),
        },
      }).expect(200);
      const link = (await org.owner.http.get(o(`/issues/${issue.id}/pr-links`)).expect(200)).body.pr_links[0];
      expect(link).toMatchObject({ head_sha: head2, pr_status: 'closed', pr_title: 'Renamed' });
      ctx = (await org.owner.http.get(o(`/issues/${issue.id}/delivery-context`)).expect(200)).body.deliveryContext;
      expect(ctx.head_sha).toBe(head2);
      expect(ctx.review.state).toBe('none');
      expect(ctx.history).toMatchObject({ head_shas: [p.head], reviews: 1, check_runs: 1 });
      expect(ctx.blocker.code).toBe('pr_closed');
    });

    it('verification.completed: attention mode only, exact head, once per run attempt, per readable assignee; REST heartbeat yes, MCP no; the ack hides it', async () => {
      const agent = await newAgent(t, org, { role: 'member' });
      const key = bearer(t, agent.key);
      const p = pull();
      // the agent and a human editor on a readable issue; the guest on an issue of a project it cannot read
      const issue = await insertIssue(t, org.id, proj.id, { assigneeIds: [agent.memberId, editorId] });
      const unreadable = await insertIssue(t, org.id, hidden.id, { assigneeIds: [guestId] });
      for (const i of [issue, unreadable])
        await org.owner.http
          .post(o(`/issues/${i.id}/pr-links`))
          .send({ url: prUrl(p.number) })
          .expect(201);
      const run = (id: number, head = p.head, conclusion = 'success') => ({
        action: 'completed',
        repository: { id: 777, full_name: 'octo/widgets' },
        workflow_run: {
          id,
          name: 'CI',
          path: '.github/workflows/ci.yml',
          head_sha: head,
          status: 'completed',
          conclusion,
          run_attempt: 1,
          pull_requests: [{ number: p.number }],
          head_commit: { message: 'secret log line' },
        },
      });
      const verifications = async (who: { get: (p: string) => any }) =>
        (await who.get(o('/notifications')).expect(200)).body.notifications.filter((n: any) => n.event_type === 'verification.completed');
      const attention = async (view = '') =>
        ((await key.get(o(`/heartbeat${view}`)).expect(200)).body.attention_items as any[]).filter((n) => n.event_type === 'verification.completed');

      await hook(conn.id, 'workflow_run', run(501)).expect(200); // mode off (default): observe only
      expect(await verifications(key)).toEqual([]);
      await org.owner.http
        .patch(o(`/github-connections/${conn.id}`))
        .send({ verification_mode: 'attention' })
        .expect(200);
      await hook(conn.id, 'workflow_run', run(502, sha())).expect(200); // another head: nothing
      expect(await verifications(key)).toEqual([]);
      const delivery = randomUUID();
      await hook(conn.id, 'workflow_run', run(503), { delivery }).expect(200);
      await hook(conn.id, 'workflow_run', run(503)).expect(200); // the same run attempt again (another delivery): still one
      const [notice] = await verifications(key);
      expect(await verifications(key)).toHaveLength(1);
      const verification = {
        verificationEventId: delivery,
        repository: 'octo/widgets',
        repository_id: 777,
        pull_request: p.number,
        workflow_run_id: 503,
        run_attempt: 1,
        head_sha: p.head,
        workflow: 'CI',
        conclusion: 'success',
        run_url: `https://github.com/octo/widgets/actions/runs/503/attempts/1`,
        next_action: expect.any(String),
      };
      expect(notice).toMatchObject({ action_kind: 'resume_agent_thread', severity: 'info', resource_id: issue.id, metadata: { verification } });
      // the human assignee reviews; the guest who cannot read its issue gets nothing
      expect(await verifications(editor.http)).toEqual([expect.objectContaining({ action_kind: 'review_issue', issue_id: issue.id })]);
      expect(await verifications(guest.http)).toEqual([]);

      // REST heartbeat: compact and full views carry it with its verification object, nothing raw
      const compact = await attention();
      expect(compact).toEqual([
        {
          id: notice.id,
          event_type: 'verification.completed',
          severity: 'info',
          title: expect.stringContaining(`octo/widgets#${p.number}`),
          resource_type: 'issue',
          resource_id: issue.id,
          ack_endpoint: `/api/orgs/${org.id}/notifications/${notice.id}/ack`,
          verification,
        },
      ]);
      const full = await attention('?view=full');
      expect(full).toEqual([expect.objectContaining({ id: notice.id, action_kind: 'resume_agent_thread', verification })]);
      const page = (await key.get(o('/heartbeat')).expect(200)).body;
      const summary = page.attention_summary;
      // it counts in the page budget: a budget that holds the envelope but not this first item is 413 (nothing advances)
      const itemBytes = Buffer.byteLength(JSON.stringify(compact[0]));
      const fits = await key.get(o(`/heartbeat?max_bytes=${page.page.returned_bytes}`)).expect(200);
      expect(fits.body.attention_items.map((n: any) => n.id)).toContain(notice.id);
      const tight = await key.get(o(`/heartbeat?max_bytes=${page.page.returned_bytes - itemBytes + 10}`));
      expect([tight.status, tight.body.code]).toEqual([413, 'heartbeat_budget_too_small']);
      expect(summary.by_type['verification.completed']).toBe(1);
      for (const body of [compact, full]) {
        const text = JSON.stringify(body);
        for (const raw of [SECRET, TOKEN, 'secret log line', 'pull_requests', 'head_commit']) expect(text).not.toContain(raw);
      }

      // the MCP heartbeat tool leaves it out (items, counts and summary)
      const mcp = await t
        .http()
        .post('/mcp')
        .set('authorization', `Bearer ${agent.key}`)
        .set('accept', 'application/json, text/event-stream')
        .send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'heartbeat', arguments: {} } })
        .expect(200);
      const beat = mcp.body.result.structuredContent;
      expect(mcp.body.result.isError).toBeFalsy();
      expect(beat.attention_items.some((n: any) => n.event_type === 'verification.completed')).toBe(false);
      expect(beat.attention_summary.by_type).not.toHaveProperty('verification.completed');
      expect(beat.counts.attention_items).toBe(summary.total - 1);

      // acknowledging the notification (its ack_endpoint) hides it everywhere; a second ack answers the first time
      const ack = (await key.post(compact[0].ack_endpoint).expect(200)).body;
      expect(ack).toEqual({ notification: { id: notice.id, acknowledged_at: expect.any(String) } });
      expect(await attention()).toEqual([]);
      expect(await attention('?view=full')).toEqual([]);
      expect((await key.post(compact[0].ack_endpoint).expect(200)).body).toEqual(ack);
      // someone else's verification: 404; a malformed id 400
      const editorNotice = (await verifications(editor.http))[0];
      await key.post(o(`/notifications/${editorNotice.id}/ack`)).expect(404);
      await key.post(o('/notifications/not-a-uuid/ack')).expect(400);

      // a failed run on the same head notifies again (another run), as a warning
      await hook(conn.id, 'workflow_run', run(504, p.head, 'failure')).expect(200);
      expect(await attention()).toEqual([expect.objectContaining({ severity: 'warning', verification: expect.objectContaining({ conclusion: 'failure' }) })]);
      // switched off: no new projection
      await org.owner.http
        .patch(o(`/github-connections/${conn.id}`))
        .send({ verification_mode: 'off' })
        .expect(200);
      await hook(conn.id, 'workflow_run', run(505)).expect(200);
      expect(await attention()).toHaveLength(1);
      await key.get(o(`/issues/${issue.id}/delivery-context`)).expect(200);
    });

    it('accepts form-encoded deliveries (`payload` field), the signature over the form bytes; bad forms 400, never a 5xx', async () => {
      const p = pull();
      const issue = await insertIssue(t, org.id, proj.id);
      await org.owner.http
        .post(o(`/issues/${issue.id}/pr-links`))
        .send({ url: prUrl(p.number) })
        .expect(201);
      const formHook = (body: string, opts: { signature?: string; event?: string } = {}) =>
        t
          .http()
          .post(`/api/webhooks/github/${conn.id}`)
          .set('content-type', 'application/x-www-form-urlencoded')
          .set('x-github-event', opts.event ?? 'pull_request')
          .set('x-github-delivery', randomUUID())
          .set('x-hub-signature-256', opts.signature ?? sign(body))
          .send(body);
      const payload = {
        action: 'edited',
        repository: { id: 777, full_name: 'octo/widgets' },
        pull_request: { id: p.id, number: p.number, state: 'open', title: 'Sent as a form', head: { sha: p.head }, updated_at: new Date().toISOString() },
      };
      const form = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
      expect((await formHook(form).expect(200)).body).toEqual({ accepted: true, duplicate: false });
      const link = (await org.owner.http.get(o(`/issues/${issue.id}/pr-links`)).expect(200)).body.pr_links[0];
      expect(link.pr_title).toBe('Sent as a form');
      // the signature covers the raw form bytes, not the JSON inside
      expect((await formHook(form, { signature: sign(JSON.stringify(payload)) })).status).toBe(401);
      for (const bad of [
        '',
        'other=1',
        `payload=${encodeURIComponent('{nope')}`,
        `payload=1&payload=2`,
        `payload=${encodeURIComponent('{"zen":"a\\u0000b"}')}`,
      ]) {
        const res = await formHook(bad, { event: 'ping' });
        expect([bad, res.status, res.body.code]).toEqual([bad, 400, 'validation_failed']);
      }
      // other JSON routes still refuse forms (415)
      const other = await org.owner.http.post(o('/issues')).set('content-type', 'application/x-www-form-urlencoded').send('title=x');
      expect([other.status, other.body.code]).toEqual([415, 'unsupported_media_type']);
    });
  });

  describe('timeline', () => {
    const timeline = async (issueId: string, action: string) =>
      ((await org.owner.http.get(o(`/issues/${issueId}/activity`)).expect(200)).body.data as any[]).filter((e) => e.action === action);

    it('github_pr.linked by the member, github_pr.updated by GitHub (per link, only on a change), nothing raw', async () => {
      const p = pull({ title: 'First title' });
      const [a, b] = [await insertIssue(t, org.id, proj.id), await insertIssue(t, org.id, null)];
      const link = (
        await org.owner.http
          .post(o(`/issues/${a.id}/pr-links`))
          .send({ url: prUrl(p.number) })
          .expect(201)
      ).body.pr_link;
      await org.owner.http
        .post(o(`/issues/${b.id}/pr-links`))
        .send({ url: prUrl(p.number) })
        .expect(201);
      // linking again answers the link and adds no entry
      await org.owner.http
        .post(o(`/issues/${a.id}/pr-links`))
        .send({ url: prUrl(p.number) })
        .expect(201);
      const [linked] = await timeline(a.id, 'github_pr.linked');
      expect(await timeline(a.id, 'github_pr.linked')).toHaveLength(1);
      expect(linked).toMatchObject({
        issue_id: a.id,
        project_id: proj.id,
        actor_id: expect.any(String),
        metadata: {
          pr_link_id: link.id,
          github_repo: 'octo/widgets',
          pr_number: p.number,
          pr_url: prUrl(p.number),
          pr_title: 'First title',
          pr_status: 'open',
          head_sha: p.head,
          actor: { type: 'human' },
        },
      });
      const repository = { id: 777, full_name: 'octo/widgets' };
      const prEvent = (over: Record<string, unknown>) =>
        hook(conn.id, 'pull_request', {
          action: 'edited',
          repository,
          pull_request: {
            id: p.id,
            number: p.number,
            state: 'open',
            title: 'First title',
            head: { sha: p.head },
            updated_at: new Date().toISOString(),
            ...over,
          },
        }).expect(200);
      await prEvent({}); // nothing changed: no entry
      expect(await timeline(a.id, 'github_pr.updated')).toEqual([]);
      const head2 = sha();
      await prEvent({ state: 'closed', title: 'Second title', head: { sha: head2 }, body: 'raw description' });
      for (const issueId of [a.id, b.id]) {
        const updated = await timeline(issueId, 'github_pr.updated');
        expect(updated).toEqual([
          expect.objectContaining({
            actor_id: null,
            actor: null,
            metadata: expect.objectContaining({
              github_repo: 'octo/widgets',
              pr_number: p.number,
              changed_fields: ['head_sha', 'pr_status', 'pr_title'],
              changes: {
                head_sha: { from: p.head, to: head2 },
                pr_status: { from: 'open', to: 'closed' },
                pr_title: { from: 'First title', to: 'Second title' },
              },
              actor: { display_name: 'GitHub', type: 'automation' },
            }),
          }),
        ]);
        expect(JSON.stringify(updated)).not.toContain('raw description');
      }
      // the org feed shows them to readers of the issue only (the projectless one: non-guests)
      const feed = async (who: { get: (p: string) => any }) =>
        ((await who.get(o('/activity?limit=100')).expect(200)).body.data as any[]).filter((e) => e.action.startsWith('github_pr.')).map((e) => e.issue_id);
      expect(await feed(member.http)).toEqual(expect.arrayContaining([a.id, b.id]));
      expect(await feed(guest.http)).toContain(a.id);
      expect(await feed(guest.http)).not.toContain(b.id);
      // other readers: an unreadable issue's timeline is 404, a readable one 200
      await guest.http.get(o(`/issues/${b.id}/activity`)).expect(404);
    });

    it('external_reference.linked / updated / unlinked on issues (issue timeline) and projects (project entries in the feed)', async () => {
      const p = pull({ title: 'Reference title' });
      const issue = await insertIssue(t, org.id, proj.id);
      const ref = (
        await org.owner.http
          .post(o(`/issues/${issue.id}/external-references`))
          .send({ url: prUrl(p.number) })
          .expect(201)
      ).body.external_reference;
      const [linked] = await timeline(issue.id, 'external_reference.linked');
      expect(linked).toMatchObject({
        issue_id: issue.id,
        project_id: proj.id,
        metadata: {
          external_reference_id: ref.external_reference_id,
          link_id: ref.id,
          provider: 'github',
          object_type: 'pull_request',
          github_repo: 'octo/widgets',
          pr_number: p.number,
          canonical_url: prUrl(p.number),
          title: 'Reference title',
          target_type: 'issue',
          target_id: issue.id,
          actor: { type: 'human' },
        },
      });
      // the same again: nothing new; the provider renamed it: updated on every link of the reference
      await org.owner.http
        .post(o(`/issues/${issue.id}/external-references`))
        .send({ url: prUrl(p.number) })
        .expect(201);
      expect(await timeline(issue.id, 'external_reference.linked')).toHaveLength(1);
      expect(await timeline(issue.id, 'external_reference.updated')).toEqual([]);
      const projectRef = (
        await org.owner.http
          .post(o(`/projects/${hidden.id}/external-references`))
          .send({ url: prUrl(p.number) })
          .expect(201)
      ).body.external_reference;
      gh.addPull({ ...p, title: 'Renamed reference' });
      await org.owner.http
        .post(o(`/issues/${issue.id}/external-references`))
        .send({ url: prUrl(p.number) })
        .expect(201);
      expect(await timeline(issue.id, 'external_reference.updated')).toEqual([
        expect.objectContaining({ metadata: expect.objectContaining({ title: 'Renamed reference', link_id: ref.id }) }),
      ]);
      const projectEntries = async (who: { get: (p: string) => any }) =>
        ((await who.get(o('/activity?limit=100')).expect(200)).body.data as any[]).filter(
          (e) => e.issue_id === null && e.project_id === hidden.id && e.action.startsWith('external_reference.'),
        );
      expect((await projectEntries(org.owner.http)).map((e) => e.action).sort()).toEqual(['external_reference.linked', 'external_reference.updated']);
      expect((await projectEntries(org.owner.http))[0].metadata).toMatchObject({ target_type: 'project', target_id: hidden.id, link_id: projectRef.id });
      // a guest without access to the project sees none of it, cannot unlink (404), a read-only guest 403
      expect(await projectEntries(guest.http)).toEqual([]);
      await guest.http.delete(o(`/projects/${hidden.id}/external-references/${projectRef.id}`)).expect(404);
      await guest.http.delete(o(`/issues/${issue.id}/external-references/${ref.id}`)).expect(403);
      // unlinking: one entry each; unlinking again is 404 and adds nothing
      await org.owner.http.delete(o(`/issues/${issue.id}/external-references/${ref.id}`)).expect(200);
      await org.owner.http.delete(o(`/projects/${hidden.id}/external-references/${projectRef.id}`)).expect(200);
      await org.owner.http.delete(o(`/issues/${issue.id}/external-references/${ref.id}`)).expect(404);
      expect(await timeline(issue.id, 'external_reference.unlinked')).toEqual([
        expect.objectContaining({
          metadata: expect.objectContaining({ link_id: ref.id, external_reference_id: ref.external_reference_id, title: 'Renamed reference' }),
        }),
      ]);
      expect((await projectEntries(org.owner.http)).filter((e) => e.action === 'external_reference.unlinked')).toHaveLength(1);
    });
  });

  describe('delivery context', () => {
    it('is null without a PR link; 404 for unreadable issues', async () => {
      const issue = await insertIssue(t, org.id, proj.id);
      expect((await guest.http.get(o(`/issues/${issue.id}/delivery-context`)).expect(200)).body).toEqual({ deliveryContext: null });
      const hiddenIssue = await insertIssue(t, org.id, hidden.id);
      await guest.http.get(o(`/issues/${hiddenIssue.id}/delivery-context`)).expect(404);
      await other.owner.http.get(o(`/issues/${issue.id}/delivery-context`)).expect(404);
    });

    it('reads the provider live: reviews, required checks (rulesets ∪ classic), workflows', async () => {
      const p = pull({ baseRef: 'main' });
      gh.reviews.set(`octo/widgets#${p.number}`, [
        { id: 1, state: 'APPROVED', commit_id: p.head, user: { login: 'r', id: 5 }, submitted_at: new Date().toISOString() },
      ]);
      gh.checkRuns.set(`octo/widgets@${p.head}`, [{ id: 2, name: 'ci/test', status: 'completed', conclusion: 'success', app: { id: 15368 } }]);
      gh.statuses.set(`octo/widgets@${p.head}`, [{ id: 3, context: 'ci/lint', state: 'success' }]);
      gh.classic.set('octo/widgets:main', [{ context: 'ci/lint', app_id: null }]);
      gh.rules.set('octo/widgets:main', [{ context: 'ci/test', integration_id: 15368 }, { context: 'ci/lint' }]);
      gh.workflowRuns.set('octo/widgets', [
        {
          id: 9,
          name: 'CI',
          path: '.github/workflows/ci.yml',
          head_sha: p.head,
          status: 'completed',
          conclusion: 'cancelled',
          run_attempt: 1,
          html_url: 'https://github.com/octo/widgets/actions/runs/9',
        },
      ]);
      const issue = await insertIssue(t, org.id, proj.id);
      await org.owner.http
        .post(o(`/issues/${issue.id}/pr-links`))
        .send({ url: prUrl(p.number) })
        .expect(201);
      const ctx = (await guest.http.get(o(`/issues/${issue.id}/delivery-context`)).expect(200)).body.deliveryContext;
      expect(ctx).toMatchObject({
        head_sha: p.head,
        pr_status: 'open',
        partial: false,
        review: { state: 'approved', approvals: 1 },
        required_checks: {
          state: 'complete',
          aggregate: 'passed',
          checks: [
            { context: 'ci/lint', integration_id: null, policy_sources: ['classic', 'ruleset'], result: 'passed' },
            { context: 'ci/test', integration_id: 15368, policy_sources: ['ruleset'], result: 'passed' },
          ],
        },
        workflows: [{ id: '9', result: 'cancelled', required: false }],
        provenance: { source: 'provider' },
      });
    });

    it('a failing or hanging provider gives partial evidence, never a 5xx', async () => {
      const p = pull({ baseRef: 'main' });
      const issue = await insertIssue(t, org.id, proj.id);
      await org.owner.http
        .post(o(`/issues/${issue.id}/pr-links`))
        .send({ url: prUrl(p.number) })
        .expect(201);
      for (const fault of ['error500', 'garbage', 'hang', 'rate_limit'] as const) {
        gh.fault = fault;
        const ctx = (await org.owner.http.get(o(`/issues/${issue.id}/delivery-context`)).expect(200)).body.deliveryContext;
        expect(ctx).toMatchObject({ head_sha: p.head, partial: true, required_checks: { state: 'unavailable', aggregate: 'unknown' } });
      }
    });
  });

  it('deleting a project, an issue or the organization takes its GitHub rows with it', async () => {
    const o2 = await newOrg(t);
    const p2 = await newProject(t, o2);
    const path = (x: string) => `/api/orgs/${o2.id}${x}`;
    const c2 = (await o2.owner.http.post(path('/github-connections')).send({ token: TOKEN, webhook_secret: SECRET }).expect(201)).body.connection;
    const p = pull();
    const i1 = await insertIssue(t, o2.id, p2.id, { assigneeId: o2.ownerMemberId });
    const i2 = await insertIssue(t, o2.id, null);
    for (const i of [i1, i2]) {
      await o2.owner.http
        .post(path(`/issues/${i.id}/pr-links`))
        .send({ url: prUrl(p.number) })
        .expect(201);
      await o2.owner.http
        .post(path(`/issues/${i.id}/external-references`))
        .send({ url: prUrl(p.number) })
        .expect(201);
    }
    await o2.owner.http
      .post(path(`/projects/${p2.id}/external-references`))
      .send({ url: prUrl(p.number) })
      .expect(201);
    await o2.owner.http
      .patch(path(`/github-connections/${c2.id}`))
      .send({ verification_mode: 'attention' })
      .expect(200);
    await hook(c2.id, 'workflow_run', {
      action: 'completed',
      repository: { id: 777, full_name: 'octo/widgets' },
      workflow_run: {
        id: 1,
        name: 'CI',
        path: 'ci.yml',
        head_sha: p.head,
        status: 'completed',
        conclusion: 'failure',
        run_attempt: 1,
        pull_requests: [{ number: p.number }],
      },
    }).expect(200);
    const count = async (table: string) => (await t.db.query(`SELECT count(*)::int AS n FROM ${table} WHERE org_id = $1`, [o2.id]))[0].n;
    expect(await count('github_verification_items')).toBe(1);
    await o2.owner.http
      .delete(path(`/projects/${p2.id}`))
      .send({ confirmation: 'DELETE' })
      .expect(200);
    expect([await count('github_pr_links'), await count('github_external_reference_links'), await count('github_verification_items')]).toEqual([1, 1, 0]);
    await o2.owner.http.delete(`/api/orgs/${o2.id}`).expect(200);
    for (const table of [
      'github_connections',
      'github_pr_links',
      'github_external_references',
      'github_external_reference_links',
      'github_webhook_deliveries',
      'github_observations',
    ])
      expect(await count(table)).toBe(0);
  });
});
