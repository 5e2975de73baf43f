import { Test } from '@nestjs/testing';
import { RecurrenceSweepProcessor } from '../../src/modules/recurrence/recurrence-sweep.processor';
import { RecurrenceScheduler } from '../../src/modules/recurrence/recurrence.scheduler';
import { WorkerModule } from '../../src/worker.module';
import { type TestApp, startTestApp } from '../support/app';
import { newOrg, newProject, type TestOrg } from '../support/factories';

/** Recurrence through the issue routes (create/update, owned by the issues part) and the worker wiring. */
describe('recurrence over HTTP (e2e)', () => {
  let t: TestApp;
  let org: TestOrg;
  let project: { id: string; key: string };
  const base = () => `/api/orgs/${org.id}/issues`;

  beforeAll(async () => {
    t = await startTestApp();
    org = await newOrg(t);
    project = await newProject(t, org);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('create returns the recurrence fields (days in calendar order) and never the cursor', async () => {
    const res = await org.owner.http
      .post(base())
      .send({
        title: 'Standup',
        projectId: project.id,
        recurrenceType: 'weekly',
        recurrenceMaterializationMode: 'schedule',
        recurrenceDays: ['fri', 'mon', 'wed'],
        recurrenceTime: '09:30',
        recurrenceTimezone: 'Europe/Berlin',
      })
      .expect(201);
    const issue = res.body.issue;
    expect(issue).toMatchObject({
      recurrence_type: 'weekly',
      recurrence_interval: 1,
      recurrence_days: ['mon', 'wed', 'fri'],
      recurrence_materialization_mode: 'schedule',
      recurrence_time: '09:30',
      recurrence_timezone: 'Europe/Berlin',
      recurrence_schedule: { type: 'weekly', interval: 1, days: ['mon', 'wed', 'fri'] },
    });
    expect(JSON.stringify(res.body)).not.toMatch(/next_run/i);
    const [row] = await t.db.query('SELECT recurrence_next_run_at FROM issues WHERE org_id = $1 AND id = $2', [org.id, issue.id]);
    expect(row.recurrence_next_run_at).not.toBeNull();

    // an unrelated update keeps the schedule and its cursor
    await org.owner.http.patch(`${base()}/${issue.id}`).send({ title: 'Daily standup', dueDate: '2030-01-01' }).expect(200);
    const [after] = await t.db.query('SELECT recurrence_next_run_at, recurrence_days FROM issues WHERE org_id = $1 AND id = $2', [org.id, issue.id]);
    expect(after.recurrence_next_run_at).toEqual(row.recurrence_next_run_at);
    expect(after.recurrence_days).toEqual(['mon', 'wed', 'fri']);

    // recurrenceType null clears everything
    const cleared = await org.owner.http.patch(`${base()}/${issue.id}`).send({ recurrenceType: null }).expect(200);
    expect(cleared.body.issue).toMatchObject({ recurrence_type: null, recurrence_schedule: null });
  });

  it.each([
    ['interval 0', { recurrenceType: 'daily', recurrenceInterval: 0 }],
    ['interval 1.5', { recurrenceType: 'daily', recurrenceInterval: 1.5 }],
    ['interval string', { recurrenceType: 'daily', recurrenceInterval: 'two' }],
    ['interval 1e20', { recurrenceType: 'daily', recurrenceInterval: 1e20 }],
    ['schedule interval 10001', { recurrenceType: 'daily', recurrenceMaterializationMode: 'schedule', recurrenceInterval: 10001 }],
    ['days in completion mode', { recurrenceType: 'weekly', recurrenceDays: ['mon'] }],
    ['duplicate days', { recurrenceType: 'weekly', recurrenceMaterializationMode: 'schedule', recurrenceDays: ['mon', 'mon'] }],
    ['fake zone', { recurrenceType: 'daily', recurrenceMaterializationMode: 'schedule', recurrenceTimezone: 'Mars/Olympus_Mons' }],
    ['numeric zone', { recurrenceType: 'daily', recurrenceMaterializationMode: 'schedule', recurrenceTimezone: 42 }],
    ['bad type', { recurrenceType: 'hourly' }],
  ])('create with %s → 400', async (_n, body) => {
    const res = await org.owner.http
      .post(base())
      .send({ title: 'x', projectId: project.id, ...body })
      .expect(400);
    expect(typeof res.body.error).toBe('string');
    expect(res.body.error).toMatch(/recurrence(Type|Interval|Days|Timezone)/); // the rule's message, not a generic refusal
  });

  it('completion mode: two racing PATCHes to done create exactly one next occurrence', async () => {
    const created = await org.owner.http
      .post(base())
      .send({ title: 'Pay rent', projectId: project.id, dueDate: '2026-01-31', recurrenceType: 'monthly' })
      .expect(201);
    const id = created.body.issue.id;
    const [a, b] = await Promise.all([
      org.owner.http.patch(`${base()}/${id}`).send({ status: 'done' }),
      org.owner.http.patch(`${base()}/${id}`).send({ status: 'done' }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const rows = await t.db.query(`SELECT due_date::text AS due_date, title, status FROM issues WHERE org_id = $1 AND recurrence_source_id = $2`, [org.id, id]);
    expect(rows).toEqual([{ due_date: '2026-02-28', title: 'Pay rent', status: 'backlog' }]);
  });

  it('the worker module wires the sweep (queue, scheduler, processor)', async () => {
    const ref = await Test.createTestingModule({ imports: [WorkerModule.forRoot(t.config)] }).compile();
    try {
      expect(ref.get(RecurrenceSweepProcessor, { strict: false })).toBeInstanceOf(RecurrenceSweepProcessor);
      expect(ref.get(RecurrenceScheduler, { strict: false })).toBeInstanceOf(RecurrenceScheduler);
    } finally {
      await ref.close();
    }
  });
});
