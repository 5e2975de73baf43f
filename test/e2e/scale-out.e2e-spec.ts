import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import Bull from 'bull';
import { Client } from 'pg';
import { RECURRENCE_QUEUE, RECURRENCE_SWEEP } from '../../src/modules/recurrence/recurrence.constants';
import { ensureBuilt, ROOT } from '../support/build';
import { PNG_1x1 } from '../support/images';
import { reservedPort } from '../support/ports';
import { type PrivateRedis, startPrivateRedis } from '../support/redis';
import { Receiver } from '../support/webhooks';

/**
 * Scale-out (issue 19): two API processes and two worker processes of the built service (`dist`,
 * real child processes, as deployed) on one database and one Redis. The Redis is a private
 * redis-server this test starts on a port it reserved, so no queue, lock or rate-limit key is
 * shared with anything else. Nothing depends on timing: every wait polls for the awaited state
 * with a generous deadline.
 *
 * Shows: an upload through one API downloads through the other (shared PostgreSQL storage); a
 * write through one API is read through the other at once (the kept read results are versioned in
 * the database, not per process); 200 concurrent creates over both APIs get gap-free numbers; each
 * webhook delivery is sent once while both workers drain; a scheduled recurrence fires once with
 * both workers sweeping; an attachment delete removes the bytes whichever worker sweeps.
 */
jest.setTimeout(600_000);

const MAIN = join(ROOT, 'dist/src/main.js');
const WORKER = join(ROOT, 'dist/src/worker.js');
const DEADLINE_MS = 180_000;

interface Proc {
  name: string;
  child: ChildProcess;
  output: () => string;
  exited: Promise<unknown>;
}

/** Polls `fn` until it answers true or the deadline passes (wall clock, so a slow machine only waits longer). */
async function until(fn: () => Promise<boolean>, what: string, timeoutMs = DEADLINE_MS): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await fn()) return;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function start(name: string, args: string[], env: NodeJS.ProcessEnv): Proc {
  const child = spawn(args[0], args.slice(1), { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const keep = (d: Buffer) => (out = (out + d.toString()).slice(-200_000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  return { name, child, output: () => out, exited: new Promise((res) => child.once('exit', res)) };
}

async function stop(p: Proc | undefined): Promise<void> {
  if (!p || p.child.exitCode !== null || p.child.signalCode !== null) return;
  p.child.kill('SIGTERM');
  const timer = setTimeout(() => p.child.kill('SIGKILL'), 15_000);
  await p.exited;
  clearTimeout(timer);
}

interface Res {
  status: number;
  body: any;
  bytes: Buffer;
  headers: Headers;
}

/** One HTTP call to a process; JSON or multipart body; a session cookie or a bearer key. */
async function call(base: string, method: string, path: string, o: { key?: string; cookie?: string; json?: unknown; form?: FormData } = {}): Promise<Res> {
  const headers: Record<string, string> = {};
  if (o.key) headers.authorization = `Bearer ${o.key}`;
  if (o.cookie) headers.cookie = o.cookie;
  let body: RequestInit['body'];
  if (o.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(o.json);
  } else if (o.form) body = o.form;
  const r = await fetch(`${base}${path}`, { method, headers, body });
  const bytes = Buffer.from(await r.arrayBuffer());
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString());
  } catch {
    parsed = undefined;
  }
  return { status: r.status, body: parsed, bytes, headers: r.headers };
}

const expectStatus = (r: Res, status: number, what: string): Res => {
  if (r.status !== status) throw new Error(`${what}: expected ${status}, got ${r.status} ${r.bytes.toString().slice(0, 500)}`);
  return r;
};

describe('scale-out: two API processes and two workers on one database and one Redis', () => {
  let redis: PrivateRedis | undefined;
  let redisUrl: string;
  let prefix: string;
  const apis: Proc[] = [];
  const workers: Proc[] = [];
  const urls: string[] = [];
  let db: Client;
  let receiver: Receiver;
  let orgId: string;
  let cookie: string;
  let key: string;
  let projectId: string;

  const api = (i: number) => urls[i % urls.length];
  const newProject = async (): Promise<string> => {
    const letters = Array.from(randomBytes(5), (b) => 'ABCDEFGHJKLMNPQRSTUVWXYZ'[b % 24]).join('');
    return expectStatus(
      await call(api(0), 'POST', `/api/orgs/${orgId}/projects`, { cookie, json: { name: `Scale ${letters}`, key: `S${letters}` } }),
      201,
      'project',
    ).body.project.id;
  };
  const createIssue = async (i: number, project: string, title: string): Promise<Res> =>
    call(api(i), 'POST', `/api/orgs/${orgId}/issues`, { key, json: { projectId: project, title } });

  beforeAll(async () => {
    await ensureBuilt('dist/src/main.js', 'dist/src/worker.js');
    // a private Redis: queues, locks and rate-limit counters of these processes only
    redis = await startPrivateRedis('scale-out');
    redisUrl = redis.url;
    prefix = `scale-${randomBytes(4).toString('hex')}`;
    const env = {
      ...process.env,
      REDIS_URL: redisUrl,
      QUEUE_PREFIX: prefix,
      MIGRATIONS_RUN: 'false',
      SERVICE_ALLOW_LOOPBACK_WEBHOOKS: '1',
      STORAGE_DRIVER: 'postgres',
      READ_CACHE: 'true',
      HOST: '127.0.0.1',
    };
    for (let i = 0; i < 2; i++) {
      const port = await reservedPort();
      apis.push(start(`api-${i}`, [process.execPath, MAIN], { ...env, PORT: String(port), LOG_LEVEL: 'warn' }));
      urls.push(`http://127.0.0.1:${port}`);
      workers.push(start(`worker-${i}`, [process.execPath, WORKER], { ...env, LOG_LEVEL: 'info' }));
    }
    for (const [i, p] of apis.entries()) {
      await until(async () => {
        if (p.child.exitCode !== null) throw new Error(`${p.name} exited:\n${p.output()}`);
        return fetch(`${urls[i]}/api/health`).then(
          (r) => r.status < 500,
          () => false,
        );
      }, `${p.name} to answer`);
    }
    for (const w of workers) {
      await until(async () => {
        if (w.child.exitCode !== null) throw new Error(`${w.name} exited:\n${w.output()}`);
        return w.output().includes('worker started');
      }, `${w.name} to start`);
    }
    db = new Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
    receiver = await new Receiver().start();

    // an owner (web session, through API 0), its organization, and an admin agent key
    const email = `scale-${randomBytes(4).toString('hex')}@example.com`;
    const signup = await fetch(`${api(0)}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: `pw-${randomBytes(8).toString('hex')}`, display_name: 'Scale Owner' }),
    });
    expect(signup.status).toBe(201);
    cookie = signup.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const prefixLetters = Array.from(randomBytes(4), (b) => 'ABCDEFGHJKLMNPQRSTUVWXYZ'[b % 24]).join('');
    orgId = expectStatus(await call(api(1), 'POST', '/api/orgs', { cookie, json: { name: 'Scale Org', issue_prefix: `Q${prefixLetters}` } }), 201, 'org').body
      .organization.id;
    key = expectStatus(await call(api(0), 'POST', `/api/orgs/${orgId}/agents`, { cookie, json: { name: 'Scale Agent', role: 'admin' } }), 201, 'agent').body
      .apiKey;
    projectId = await newProject();
  });

  afterAll(async () => {
    for (const p of [...apis, ...workers]) await stop(p).catch(() => undefined);
    await redis?.stop();
    await receiver?.stop().catch(() => undefined);
    await db?.end().catch(() => undefined);
  });

  it('an upload through API 1 downloads through API 2; an avatar set through one is served by the other', async () => {
    const issue = expectStatus(await createIssue(0, projectId, 'with a file'), 201, 'issue').body.issue;
    const bytes = Buffer.concat([PNG_1x1, randomBytes(300_000)]);
    const form = new FormData();
    form.append('file', new Blob([bytes], { type: 'application/octet-stream' }), 'data.bin');
    const att = expectStatus(await call(api(0), 'POST', `/api/orgs/${orgId}/issues/${issue.id}/attachments`, { key, form }), 201, 'upload').body.attachment;
    const down = expectStatus(await call(api(1), 'GET', att.url, { key }), 200, 'download');
    expect(down.bytes.equals(bytes)).toBe(true);

    const me = expectStatus(await call(api(1), 'GET', `/api/orgs/${orgId}/profile`, { cookie }), 200, 'profile').body.member.id;
    const avatarForm = new FormData();
    avatarForm.append('file', new Blob([PNG_1x1], { type: 'image/png' }), 'me.png');
    const avatar = expectStatus(await call(api(1), 'POST', `/api/orgs/${orgId}/members/${me}/avatar`, { cookie, form: avatarForm }), 200, 'avatar').body.member;
    const img = expectStatus(await call(api(0), 'GET', avatar.avatar_url), 200, 'avatar image');
    expect(img.bytes.equals(PNG_1x1)).toBe(true);
  });

  it('a write through one API is read through the other at once (kept list pages and details are invalidated across processes)', async () => {
    const issue = expectStatus(await createIssue(0, projectId, 'cache v0'), 201, 'issue').body.issue;
    const listTitles = async (i: number): Promise<string[]> =>
      expectStatus(await call(api(i), 'GET', `/api/orgs/${orgId}/issues?projectId=${projectId}&limit=100`, { key }), 200, 'list').body.issues.map(
        (x: { title: string }) => x.title,
      );
    for (let round = 1; round <= 4; round++) {
      const writer = round % 2;
      const reader = 1 - writer;
      // warm the reader's kept page and detail (twice: the second is served from what it kept)
      await listTitles(reader);
      expect(await listTitles(reader)).toContain(`cache v${round - 1}`);
      expectStatus(await call(api(writer), 'PATCH', `/api/orgs/${orgId}/issues/${issue.id}`, { key, json: { title: `cache v${round}` } }), 200, 'update');
      const titles = await listTitles(reader);
      expect(titles).toContain(`cache v${round}`);
      expect(titles).not.toContain(`cache v${round - 1}`);
      const detail = expectStatus(await call(api(reader), 'GET', `/api/orgs/${orgId}/issues/${issue.id}`, { key }), 200, 'detail').body.issue;
      expect(detail.title).toBe(`cache v${round}`);
    }
    // a create through one API shows in the other's kept total
    const before = expectStatus(await call(api(1), 'GET', `/api/orgs/${orgId}/issues?projectId=${projectId}&shape=envelope`, { key }), 200, 'list').body.total;
    expectStatus(await createIssue(0, projectId, 'one more'), 201, 'issue');
    const after = expectStatus(await call(api(1), 'GET', `/api/orgs/${orgId}/issues?projectId=${projectId}&shape=envelope`, { key }), 200, 'list').body.total;
    expect(after).toBe(before + 1);
  });

  it('200 concurrent creates spread over both APIs get gap-free unique numbers', async () => {
    const project = await newProject();
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => createIssue(i, project, `burst ${i}`)));
    const failed = results.filter((r) => r.status !== 201);
    expect(failed.map((r) => `${r.status} ${r.bytes.toString().slice(0, 200)}`)).toEqual([]);
    const numbers = results.map((r) => r.body.issue.number as number).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    const { rows } = await db.query('SELECT number FROM issues WHERE org_id = $1 AND project_id = $2 ORDER BY number', [orgId, project]);
    expect(rows.map((r) => r.number)).toEqual(numbers);
  });

  it('each webhook delivery is sent exactly once while both workers drain', async () => {
    const hook = expectStatus(
      await call(api(1), 'POST', `/api/webhooks?orgId=${orgId}`, {
        cookie,
        json: { url: receiver.url('/scale-hook'), events: ['issue.created'], enabled: true },
      }),
      201,
      'webhook',
    ).body.webhook;
    const project = await newProject();
    const created = await Promise.all(Array.from({ length: 30 }, (_, i) => createIssue(i, project, `hooked ${i}`)));
    for (const r of created) expectStatus(r, 201, 'create');
    // every delivery row settled as delivered (sent), then compare with what arrived
    await until(async () => {
      const { rows } = await db.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE org_id = $1 AND webhook_id = $2 AND status = 'delivered'`, [
        orgId,
        hook.id,
      ]);
      return rows[0].n >= 30;
    }, 'the 30 deliveries');
    const { rows } = await db.query(`SELECT delivery_id, issue_id, attempts, status FROM webhook_deliveries WHERE org_id = $1 AND webhook_id = $2`, [
      orgId,
      hook.id,
    ]);
    expect(rows).toHaveLength(30);
    expect(new Set(rows.map((r) => r.issue_id))).toEqual(new Set(created.map((r) => r.body.issue.id)));
    for (const r of rows) expect(r).toMatchObject({ status: 'delivered', attempts: 1 });
    const arrived = receiver.on('/scale-hook').map((r) => String(r.headers['x-service-delivery-id']));
    expect(arrived.sort()).toEqual(rows.map((r) => r.delivery_id).sort()); // each once: no duplicate, none missing
  });

  it('a scheduled recurrence fires once while both workers sweep', async () => {
    const src = expectStatus(await createIssue(0, projectId, 'recurring'), 201, 'issue').body.issue;
    await db.query(
      `UPDATE issues SET recurrence_type = 'daily', recurrence_interval = 1, recurrence_mode = 'schedule', recurrence_time = '09:00',
              recurrence_timezone = 'UTC', recurrence_next_run_at = now() - interval '1 minute'
        WHERE org_id = $1 AND id = $2`,
      [orgId, src.id],
    );
    // several sweeps at once (besides the per-minute ones), taken by whichever worker is free
    const queue = new Bull(RECURRENCE_QUEUE, { redis: redisUrl, prefix });
    try {
      const jobs = await Promise.all(Array.from({ length: 6 }, () => queue.add(RECURRENCE_SWEEP, {}, { removeOnComplete: false, removeOnFail: false })));
      await until(async () => {
        const states = await Promise.all(jobs.map((j) => queue.getJob(j.id).then((x) => x?.getState())));
        return states.every((s) => s === 'completed' || s === 'failed');
      }, 'the sweeps');
      const states = await Promise.all(jobs.map((j) => queue.getJob(j.id).then((x) => x?.getState())));
      expect(states).toEqual(jobs.map(() => 'completed'));
      const finishedBy = await Promise.all(jobs.map((j) => queue.getJob(j.id).then((x) => x?.processedOn)));
      expect(finishedBy.every((x) => typeof x === 'number')).toBe(true);
    } finally {
      await queue.close();
    }
    const { rows } = await db.query('SELECT id FROM issues WHERE org_id = $1 AND recurrence_source_id = $2', [orgId, src.id]);
    expect(rows).toHaveLength(1);
    const [cursor] = (await db.query('SELECT recurrence_next_run_at FROM issues WHERE org_id = $1 AND id = $2', [orgId, src.id])).rows;
    expect(cursor.recurrence_next_run_at).toBeNull();
  });

  it('deleting an attachment through either API removes its bytes (the queue any worker drains)', async () => {
    const issue = expectStatus(await createIssue(1, projectId, 'files to delete'), 201, 'issue').body.issue;
    const keys: string[] = [];
    for (let i = 0; i < 4; i++) {
      const form = new FormData();
      form.append('file', new Blob([randomBytes(1000 + i)], { type: 'application/octet-stream' }), `f${i}.bin`);
      const att = expectStatus(await call(api(i), 'POST', `/api/orgs/${orgId}/issues/${issue.id}/attachments`, { key, form }), 201, 'upload').body.attachment;
      const [row] = (await db.query('SELECT storage_key FROM attachments WHERE org_id = $1 AND id = $2', [orgId, att.id])).rows;
      keys.push(row.storage_key);
      expectStatus(await call(api(i + 1), 'DELETE', `/api/orgs/${orgId}/issues/${issue.id}/attachments/${att.id}`, { key }), 200, 'delete');
      expectStatus(await call(api(i), 'GET', att.url, { key }), 404, 'content after delete');
    }
    await until(async () => {
      const { rows } = await db.query('SELECT count(*)::int AS n FROM stored_objects WHERE org_id = $1 AND key = ANY($2)', [orgId, keys]);
      return rows[0].n === 0;
    }, 'the workers to remove the bytes');
    const { rows } = await db.query('SELECT count(*)::int AS n FROM storage_deletions WHERE org_id = $1 AND storage_key = ANY($2)', [orgId, keys]);
    expect(rows[0].n).toBe(0);
    for (const p of [...apis, ...workers]) expect(p.child.exitCode).toBeNull(); // all four still running
  });
});
