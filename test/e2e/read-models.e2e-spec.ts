import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import type { Pool } from 'pg';
import { AccessPolicyService } from '../../src/common/access/access-policy.service';
import {
  ANALYTICS,
  computingReadModel,
  declaredTables,
  DEPENDENCY_CHAIN,
  HEARTBEAT,
  HEARTBEAT_CONTEXT,
  HEARTBEAT_OFF_TRACK,
  HEARTBEAT_POLICY,
  HEARTBEAT_ATTENTION,
  HEARTBEAT_STRATEGY,
  HEARTBEAT_WORK,
  ISSUE_LIST,
  ISSUE_SEARCH,
  READ_MODELS,
  type ReadModel,
  STRATEGY_AUDIT,
  trustedScopes,
  VERSION_SCOPES,
} from '../../src/common/cache/read-models';
import { READ_LIMITS } from '../../src/modules/heartbeat/heartbeat.repository';
import { bearer, newAgent, uniq } from '../support/factories';
import { startTestApp, type TestApp } from '../support/app';
import { insertIssue, type WorkTrackingWorld, workTrackingWorld } from '../support/issues';

/**
 * The read model declarations (src/common/cache/read-models.ts) against the database and the code:
 * - every declared table carries the trigger that bumps its scope's version (else a change to it
 *   would leave kept results in place);
 * - every table the model's statements read is declared: the statements are captured while the
 *   real requests compute (every query sent to PostgreSQL from inside `ReadModels.serve`'s
 *   computation), explained with their own parameters, and the relations of the plans compared
 *   with the declaration. The comparison is an equality, so a capture that misses statements
 *   fails too (a declared table would then be unread).
 */

/** pg_trigger.tgtype bits */
const ROW = 1;
const EVENT_BIT = { INSERT: 4, DELETE: 8, UPDATE: 16 } as const;
const TRUNCATE = 32;

interface TriggerRow {
  tbl: string;
  fn: string;
  tgtype: number;
  args: string[];
  enabled: boolean;
  source: string;
}

describe('read models: declared tables, version triggers and the statements that read them', () => {
  let t: TestApp;
  let triggers: TriggerRow[];

  beforeAll(async () => {
    // READ_CACHE=off: every request computes, so every request's statements are seen
    t = await startTestApp({ READ_CACHE: 'off' });
    const rows: Array<Omit<TriggerRow, 'args'> & { args: string }> = await t.db.query(
      `SELECT c.relname AS tbl, p.proname AS fn, tg.tgtype::int AS tgtype, encode(tg.tgargs, 'escape') AS args, tg.tgenabled <> 'D' AS enabled, p.prosrc AS source
         FROM pg_trigger tg
         JOIN pg_class c ON c.oid = tg.tgrelid
         JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = current_schema()
         JOIN pg_proc p ON p.oid = tg.tgfoid
        WHERE NOT tg.tgisinternal`,
    );
    triggers = rows.map((r) => ({ ...r, args: r.args.split('\\000').filter((a) => a !== '') }));
  });
  afterAll(() => t.close());

  describe.each(READ_MODELS.map((m) => [m.name, m] as const))('%s', (_name, model: ReadModel<any>) => {
    it('reads only the scopes it is versioned by or trusts (its own tables and the models it uses)', () => {
      const read = new Set([...Object.keys(model.reads), ...(model.uses ?? []).flatMap((u) => [...u.scopes, ...trustedScopes(u)])]);
      expect([...read].sort()).toEqual([...model.scopes, ...trustedScopes(model)].sort());
      // a trusted scope is only the used models': never its own key, and none of its own statements read what it versions
      for (const s of trustedScopes(model)) expect([s, model.scopes.includes(s), s in model.reads]).toEqual([s, false, false]);
    });

    it.each(declaredTables(model).map((d) => [`${d.table} (${d.scope}: ${d.events.join(', ')})`, d] as const))(
      'declared table %s has its version trigger',
      (_label, { scope, table, events }) => {
        const bump = VERSION_SCOPES[scope];
        const mine = triggers.filter(
          (tg) => tg.tbl === table && tg.enabled && tg.fn === bump.bump && (bump.arg === undefined || tg.args[0] === bump.arg) && (tg.tgtype & ROW) !== 0,
        );
        const covered = events.filter((e) => mine.some((tg) => (tg.tgtype & EVENT_BIT[e]) !== 0));
        expect([table, scope, covered]).toEqual([table, scope, events]);
        if (bump.bumpAll) {
          // TRUNCATE fires no row trigger: a statement trigger bumps the scope everywhere
          const truncate = triggers.some(
            (tg) => tg.tbl === table && tg.enabled && tg.fn === bump.bumpAll && tg.args[0] === bump.arg && (tg.tgtype & TRUNCATE) !== 0,
          );
          expect([table, scope, 'TRUNCATE', truncate]).toEqual([table, scope, 'TRUNCATE', true]);
        }
      },
    );

    const derived = model.derived ?? [];
    if (derived.length) {
      it.each(derived.map((d) => [d.table, d] as const))('derived table %s is kept by triggers on a versioned table', (_t, d) => {
        expect(declaredTables(model).map((x) => x.table)).toContain(d.from);
        const keeper = triggers.some((tg) => tg.tbl === d.from && tg.enabled && new RegExp(`\\b${d.table}\\b`).test(tg.source));
        expect([d.table, d.from, keeper]).toEqual([d.table, d.from, true]);
      });
    }
  });

  describe('the statements of each read model read only declared tables', () => {
    let w: WorkTrackingWorld;
    let pool: Pool;
    /** Statements sent while a read model computes, by model. */
    const captured = new Map<string, Map<string, { text: string; values: unknown[] }>>();
    let restore: () => void;

    beforeAll(async () => {
      w = await workTrackingWorld(t);
      pool = (t.db.driver as unknown as { master: Pool }).master;
      // every statement of the app goes through a pooled client's query(): record those sent from
      // inside a read model's computation (its async context)
      const proto = (pool as unknown as { Client: { prototype: { query: (...a: unknown[]) => unknown } } }).Client.prototype;
      const query = proto.query;
      proto.query = function (this: unknown, ...args: unknown[]) {
        const model = computingReadModel();
        if (model) {
          const [config, maybeValues] = args;
          const text = typeof config === 'string' ? config : (config as { text: string }).text;
          const values = (typeof config === 'string' ? maybeValues : ((config as { values?: unknown[] }).values ?? maybeValues)) as unknown[] | undefined;
          const byModel = captured.get(model) ?? new Map();
          const v = Array.isArray(values) ? values : [];
          byModel.set(`${text}\u0000${JSON.stringify(v)}`, { text, values: v });
          captured.set(model, byModel);
        }
        return query.apply(this, args);
      };
      restore = () => (proto.query = query);
    });
    afterAll(() => restore?.());

    /** Every relation named in the plans of `model`'s captured statements. */
    const relationsRead = async (model: string): Promise<string[]> => {
      const statements = [...(captured.get(model)?.values() ?? [])];
      expect(statements.length).toBeGreaterThan(0);
      const names = new Set<string>();
      const walk = (node: unknown) => {
        if (Array.isArray(node)) node.forEach(walk);
        else if (node && typeof node === 'object') {
          for (const [k, v] of Object.entries(node)) {
            if (k === 'Relation Name' && typeof v === 'string') names.add(v);
            else walk(v);
          }
        }
      };
      for (const s of statements) {
        const [row] = (await pool.query({ text: `EXPLAIN (FORMAT JSON) ${s.text}`, values: s.values })).rows;
        walk(row['QUERY PLAN']);
      }
      return [...names].sort();
    };
    const declared = (model: ReadModel<any>) =>
      [...new Set([...declaredTables(model).map((d) => d.table), ...(model.derived ?? []).map((d) => d.table)])].sort();

    it('issue list', async () => {
      const { org, proj } = w;
      const o = (p: string) => `/api/orgs/${org.id}${p}`;
      const label = (
        await org.owner.http
          .post(o('/labels'))
          .send({ name: uniq('lbl') })
          .expect(201)
      ).body.label;
      const a = await insertIssue(t, org.id, proj.id, { title: uniq('a'), assigneeIds: [w.editorId], labelIds: [label.id] });
      const b = await insertIssue(t, org.id, proj.id, { title: uniq('b') });
      await org.owner.http
        .post(o(`/issues/${a.id}/dependencies`))
        .send({ blockedByIssueId: b.id })
        .expect(201);
      const ini = (
        await org.owner.http
          .post(o('/initiatives'))
          .send({ title: uniq('ini') })
          .expect(201)
      ).body.initiative;
      const viewId = randomUUID();
      await t.db.query(`INSERT INTO custom_views (org_id, id, project_id, name, filters) VALUES ($1, $2, $3, 'v', $4)`, [
        org.id,
        viewId,
        proj.id,
        JSON.stringify({ assigneeIds: [w.editorId] }),
      ]);
      const queries = [
        '',
        'view=board',
        `q=${a.title}`,
        'view=board&q=1',
        'view=board&q=abc',
        `projectId=${proj.id}`,
        'open=true',
        'includeArchived=true',
        'status=todo',
        'priority=1,2',
        `initiativeId=${ini.id}`,
        `assigneeId=${w.editorId}`,
        'assignee=unassigned',
        'assignee=me',
        'scope=mine',
        'scope=blocked',
        `labelId=${label.id}`,
        `teamId=${randomUUID()}`,
        `milestoneId=${randomUUID()}`,
        `parentId=${a.id}`,
        `viewId=${viewId}`,
        'orderBy=status&orderDir=asc',
        'limit=1&offset=1000',
      ];
      for (const q of queries) {
        await org.owner.http.get(o(`/issues?${q}`)).expect(200);
        // the guest reads `proj` only (organization-level initiatives are not readable to guests)
        if (!q.startsWith('initiativeId')) await w.guest.http.get(o(`/issues?${q}`)).expect(200);
      }
      expect(await relationsRead('issue-list')).toEqual(declared(ISSUE_LIST));
    });

    it('dependency chain', async () => {
      const { org, proj } = w;
      const o = (p: string) => `/api/orgs/${org.id}${p}`;
      const x = await insertIssue(t, org.id, proj.id, { status: 'todo' });
      const y = await insertIssue(t, org.id, proj.id, { status: 'todo' });
      const z = await insertIssue(t, org.id, w.hidden.id, { status: 'todo' });
      await org.owner.http
        .post(o(`/issues/${y.id}/dependencies`))
        .send({ blockedByIssueId: x.id })
        .expect(201);
      await org.owner.http
        .post(o(`/issues/${z.id}/dependencies`))
        .send({ blockedByIssueId: y.id })
        .expect(201);
      for (const direction of ['both', 'upstream', 'downstream']) {
        for (const who of [org.owner, w.guest]) await who.http.get(o(`/issues/${y.id}/dependencies?view=chain&direction=${direction}&depth=1`)).expect(200);
      }
      expect(await relationsRead('dependency-chain')).toEqual(declared(DEPENDENCY_CHAIN));
    });

    it('strategy audit', async () => {
      const { org, proj } = w;
      await org.owner.http.get(`/api/orgs/${org.id}/strategy/audit`).expect(200);
      // a caller limited to some projects (the access policy's answer for one request)
      jest.spyOn(t.app.get(AccessPolicyService), 'readableProjects').mockResolvedValueOnce([proj.id]);
      await w.member.http.get(`/api/orgs/${org.id}/strategy/audit`).expect(200);
      jest.restoreAllMocks();
      expect(await relationsRead('strategy-audit')).toEqual(declared(STRATEGY_AUDIT));
    });

    it('issue search', async () => {
      const { org, proj } = w;
      const word = `needle${Date.now()}`;
      const issue = await insertIssue(t, org.id, proj.id, { title: `${word} in a title` });
      await org.owner.http
        .post(`/api/orgs/${org.id}/issues/${issue.id}/comments`)
        .send({ body: `a ${word} in a comment` })
        .expect(201);
      await org.owner.http.get(`/api/orgs/${org.id}/issues/search?q=${word}`).expect(200);
      await org.owner.http.get(`/api/orgs/${org.id}/issues/search?q=${issue.id}`).expect(200);
      jest.spyOn(t.app.get(AccessPolicyService), 'readableProjects').mockResolvedValueOnce([proj.id]);
      await w.member.http.get(`/api/orgs/${org.id}/issues/search?q=${word}&includeArchived=true`).expect(200);
      jest.restoreAllMocks();
      expect(await relationsRead('issue-search')).toEqual(declared(ISSUE_SEARCH));
    });

    it('analytics', async () => {
      const { org, proj } = w;
      const q = 'from=2026-01-01&to=2026-12-31';
      await org.owner.http.get(`/api/orgs/${org.id}/analytics?${q}`).expect(200);
      await org.owner.http.get(`/api/orgs/${org.id}/analytics?${q}&projectId=${proj.id}`).expect(200);
      expect(await relationsRead('analytics')).toEqual(declared(ANALYTICS));
    });

    it('heartbeat and its context', async () => {
      const { org, proj } = w;
      const admin = await newAgent(t, org, { role: 'admin' });
      const scoped = await newAgent(t, org, { projectIds: [proj.id] });
      const issue = await insertIssue(t, org.id, proj.id, { status: 'in_progress', assigneeIds: [scoped.memberId] });
      for (const a of [admin, scoped]) {
        await t.db.query(
          `INSERT INTO notifications (org_id, recipient_member_id, event_type, severity, action_kind, issue_id, actor_type, title) VALUES ($1, $2, 'issue.assigned', 'info', 'start_work', $3, 'human', 'hb')`,
          [org.id, a.memberId, issue.id],
        );
        for (const q of ['', '?view=full']) await bearer(t, a.key).get(`/api/orgs/${org.id}/heartbeat${q}`).expect(200);
      }
      // and with organization-wide work too large to keep: each visibility reads its own (the context's own statements)
      const limits = READ_LIMITS as { -readonly [K in keyof typeof READ_LIMITS]: number };
      const saved = { ...limits };
      limits.orgDependencies = -1;
      limits.orgLinked = -1;
      try {
        for (const q of ['', '?view=full']) await bearer(t, scoped.key).get(`/api/orgs/${org.id}/heartbeat${q}`).expect(200);
      } finally {
        Object.assign(limits, saved);
      }
      expect(await relationsRead('heartbeat')).toEqual(declared(HEARTBEAT));
      expect(await relationsRead('heartbeat-context')).toEqual(declared(HEARTBEAT_CONTEXT));
      expect(await relationsRead('heartbeat-work')).toEqual(declared(HEARTBEAT_WORK));
      expect(await relationsRead('heartbeat-strategy')).toEqual(declared(HEARTBEAT_STRATEGY));
      expect(await relationsRead('heartbeat-off-track')).toEqual(declared(HEARTBEAT_OFF_TRACK));
      expect(await relationsRead('heartbeat-policy')).toEqual(declared(HEARTBEAT_POLICY));
      expect(await relationsRead('heartbeat-attention')).toEqual(declared(HEARTBEAT_ATTENTION));
    });
  });
});

/** Kept chain pages against the changes the declaration names (READ_CACHE on). */
describe('dependency chain: kept pages follow every change they show', () => {
  let t: TestApp;
  let w: WorkTrackingWorld;
  const chain = async (id: string) => (await w.org.owner.http.get(`/api/orgs/${w.org.id}/issues/${id}/dependencies?view=chain`).expect(200)).body;

  beforeAll(async () => {
    t = await startTestApp();
    w = await workTrackingWorld(t);
  });
  afterAll(() => t.close());

  it('an issue without dependencies: its own title and status (no graph version moves for it)', async () => {
    const x = await insertIssue(t, w.org.id, w.proj.id, { status: 'todo', title: uniq('Lone') });
    expect((await chain(x.id)).nodes).toEqual([expect.objectContaining({ id: x.id, title: x.title, readiness: 'ready' })]);
    const renamed = uniq('Lone renamed');
    await w.org.owner.http.patch(`/api/orgs/${w.org.id}/issues/${x.id}`).send({ title: renamed, status: 'done' }).expect(200);
    expect((await chain(x.id)).nodes).toEqual([expect.objectContaining({ id: x.id, title: renamed, readiness: 'complete' })]);
  });

  it("a node's project key and slug", async () => {
    const x = await insertIssue(t, w.org.id, w.proj.id, { status: 'todo' });
    const y = await insertIssue(t, w.org.id, w.proj.id, { status: 'todo' });
    await w.org.owner.http.post(`/api/orgs/${w.org.id}/issues/${y.id}/dependencies`).send({ blockedByIssueId: x.id }).expect(201);
    const before = (await chain(y.id)).nodes.find((n: any) => n.id === x.id);
    // the API never changes them; the database may
    await t.db.query(`UPDATE projects SET key = key || 'Z', slug = slug || '-z' WHERE org_id = $1 AND id = $2`, [w.org.id, w.proj.id]);
    const after = (await chain(y.id)).nodes.find((n: any) => n.id === x.id);
    expect(after.projectSlug).toBe(`${before.projectSlug}-z`);
    expect(after.identifier).toBe(before.identifier.replace('-', 'Z-'));
  });
});
