import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import { Client } from 'pg';
import { Clock } from '../../src/common/clock/clock';
import { AutomationDrain } from '../../src/modules/automation/automation-drain.service';
import { AutomationJobs } from '../../src/modules/automation/automation-jobs.service';
import { AutomationRepository } from '../../src/modules/automation/automation.repository';
import { startTestApp, type TestApp } from '../support/app';
import { ensureBuilt, ROOT } from '../support/build';
import { addMember, newAgent, newOrg, newProject, newUser, type TestOrg } from '../support/factories';
import { eventually, grant } from '../support/issues';
import { reservedPort } from '../support/ports';

/**
 * A committed write keeps all of its effects when the API process dies right after it: the built
 * API runs as a child process, answers an issue create (an assignee is due a notification, an
 * enabled rule on issue.created is due a run), is SIGKILLed at once, and after a restart and a
 * drain the timeline entry, the notification and the automation run exist exactly once each.
 *
 * What would run after the commit is held deterministically (no sleeps): fixture triggers on
 * `activity_events`, `notifications` (rows written outside the transaction that created the issue)
 * and `automation_rule_runs` of this organization wait on an advisory lock the test holds until
 * the API is dead. Effects written inside the issue's transaction never wait.
 */
jest.setTimeout(240_000);

const MAIN = join(ROOT, 'dist/src/main.js');
const LOCK = 7_346_001;

interface Api {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<unknown>;
}

async function startApi(): Promise<Api> {
  const port = await reservedPort();
  const child = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', MIGRATIONS_RUN: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise((res) => child.once('exit', res));
  const url = `http://127.0.0.1:${port}`;
  const up = await eventually(async () => {
    if (child.exitCode !== null) return true;
    return fetch(`${url}/api/health`).then(
      (r) => r.status < 500,
      () => false,
    );
  }, 60_000);
  if (!up || child.exitCode !== null) throw new Error(`the API did not start:\n${out}`);
  return { child, url, output: () => out, exited };
}

describe('effects of a committed write survive a crash right after it', () => {
  let t: TestApp;
  let org: TestOrg;
  let lock: Client;
  let api: Api | undefined;

  beforeAll(async () => {
    await ensureBuilt('dist/src/main.js');
    t = await startTestApp();
    org = await newOrg(t);
    lock = new Client({ connectionString: process.env.DATABASE_URL });
    await lock.connect();
  });

  afterAll(async () => {
    if (api?.child.exitCode === null) api.child.kill('SIGKILL');
    await lock?.query('DROP FUNCTION IF EXISTS crash_test_hold() CASCADE').catch(() => undefined);
    await lock?.end().catch(() => undefined);
    await t?.close();
  });

  it('finds the activity entry, the notification and the automation run once each', async () => {
    const project = await newProject(t, org);
    const assignee = await newUser(t, 'assignee');
    const assigneeId = await addMember(t, org, assignee, 'member');
    await grant(org, project.id, assigneeId, 'edit');
    const agent = await newAgent(t, org, { role: 'admin' });
    const rule = (
      await org.owner.http
        .post(`/api/orgs/${org.id}/automation-rules`)
        .send({ name: 'greet', project_id: project.id, trigger_event: 'issue.created', actions: [{ type: 'post_comment', value: 'automated hello' }] })
        .expect(201)
    ).body.rule;

    // hold every after-commit effect of this organization until the API is dead
    await lock.query(`
      CREATE OR REPLACE FUNCTION crash_test_hold() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.org_id = '${org.id}'::uuid AND (TG_TABLE_NAME = 'automation_rule_runs' OR NOT EXISTS (
             SELECT 1 FROM issues i WHERE i.org_id = NEW.org_id AND i.id = NEW.issue_id AND i.xmin::text = (pg_current_xact_id()::text::numeric % 4294967296)::text)) THEN
          PERFORM pg_advisory_xact_lock_shared(${LOCK});
        END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER crash_test_hold BEFORE INSERT ON activity_events FOR EACH ROW EXECUTE FUNCTION crash_test_hold();
      CREATE TRIGGER crash_test_hold BEFORE INSERT ON notifications FOR EACH ROW EXECUTE FUNCTION crash_test_hold();
      CREATE TRIGGER crash_test_hold BEFORE INSERT ON automation_rule_runs FOR EACH ROW EXECUTE FUNCTION crash_test_hold();`);
    await lock.query('SELECT pg_advisory_lock($1)', [LOCK]);

    api = await startApi();
    const res = await fetch(`${api.url}/api/orgs/${org.id}/issues`, {
      method: 'POST',
      headers: { authorization: `Bearer ${agent.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ projectId: project.id, title: 'survives a crash', assigneeIds: [assigneeId] }),
    });
    const body = (await res.json()) as { issue: { id: string } };
    api.child.kill('SIGKILL');
    expect(res.status).toBe(201);
    const issueId = body.issue.id;
    await api.exited;

    // the API is dead: let go of what it left waiting, and remove the fixture
    await lock.query('SELECT pg_advisory_unlock($1)', [LOCK]);
    await lock.query('DROP FUNCTION crash_test_hold() CASCADE');

    api = await startApi();
    const drain = new AutomationDrain(t.app.get(AutomationRepository), t.app.get(AutomationJobs), t.app.get(Clock));
    const count = async (sql: string, params: unknown[]) => Number((await t.db.query(sql, params))[0].n);
    const runs = () => count('SELECT count(*) AS n FROM automation_rule_runs WHERE org_id = $1 AND rule_id = $2 AND issue_id = $3', [org.id, rule.id, issueId]);
    // the killed backend may still hold the job row for a moment: drain until the run exists
    expect(await eventually(async () => (await drain.drainPending(100, 0)) >= 0 && (await runs()) >= 1, 30_000)).toBe(true);
    await drain.drainPending(100, 0);

    const activity = await count("SELECT count(*) AS n FROM activity_events WHERE org_id = $1 AND issue_id = $2 AND action = 'issue.created'", [
      org.id,
      issueId,
    ]);
    const notified = await count(
      "SELECT count(*) AS n FROM notifications WHERE org_id = $1 AND issue_id = $2 AND recipient_member_id = $3 AND event_type = 'issue.assigned'",
      [org.id, issueId, assigneeId],
    );
    const comments = await count("SELECT count(*) AS n FROM comments WHERE org_id = $1 AND issue_id = $2 AND body LIKE '%automated hello%'", [org.id, issueId]);
    expect({ activity, notified, runs: await runs(), comments }).toEqual({ activity: 1, notified: 1, runs: 1, comments: 1 });
    expect(await count('SELECT count(*) AS n FROM automation_jobs WHERE org_id = $1 AND issue_id = $2', [org.id, issueId])).toBe(0);

    // the restarted API serves the timeline with the entry
    const timeline = await fetch(`${api.url}/api/orgs/${org.id}/issues/${issueId}/activity`, { headers: { authorization: `Bearer ${agent.key}` } });
    expect(timeline.status).toBe(200);
    const entries = ((await timeline.json()) as { data: Array<{ action: string }> }).data;
    expect(entries.filter((e) => e.action === 'issue.created')).toHaveLength(1);
    api.child.kill('SIGTERM');
    await api.exited;
  });
});
