import { DomainEvents } from '../../src/common/events/domain-events';
import { randomUUID } from 'node:crypto';
import { Clock } from '../../src/common/clock/clock';
import { PlanService } from '../../src/common/plan/plan.service';
import { IssueEntity } from '../../src/modules/issues/entities/issue.entity';
import { RecurrenceSweepProcessor } from '../../src/modules/recurrence/recurrence-sweep.processor';
import { IssuesRepository } from '../../src/modules/issues/issues.repository';
import { RecurrenceRepository } from '../../src/modules/issues/recurrence.repository';
import { BoardRepository } from '../../src/modules/projects/board.repository';
import { RecurrenceService } from '../../src/modules/issues/recurrence.service';
import { type TestApp, startTestApp } from '../support/app';
import { newOrg, newProject, type TestOrg, uniq } from '../support/factories';
import { eventually } from '../support/issues';

/**
 * Recurrence against the real database: completion-mode generation exactly once (also under two
 * racing transactions), and the scheduled sweep creating one occurrence per due run.
 */
describe('recurrence (e2e)', () => {
  let t: TestApp;
  let org: TestOrg;
  let project: { id: string; key: string };
  let service: RecurrenceService;

  class FixedClock extends Clock {
    constructor(public at: Date) {
      super();
    }
    now(): Date {
      return this.at;
    }
  }

  beforeAll(async () => {
    t = await startTestApp();
    org = await newOrg(t);
    project = await newProject(t, org);
    service = t.app.get(RecurrenceService);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function insertIssue(cols: Record<string, unknown>): Promise<IssueEntity> {
    const projectId = (cols.project_id === undefined ? project.id : cols.project_id) as string | null;
    const bumped = await t.db.query(
      projectId
        ? 'UPDATE projects SET issue_seq = issue_seq + 1 WHERE org_id = $1 AND id = $2 RETURNING issue_seq AS n'
        : 'UPDATE organizations SET issue_seq = issue_seq + 1 WHERE id = $1 RETURNING issue_seq AS n',
      projectId ? [org.id, projectId] : [org.id],
    );
    const n = (Array.isArray(bumped[0]) ? bumped[0][0] : bumped[0]).n; // TypeORM: [rows, count] for UPDATE
    const row: Record<string, unknown> = {
      org_id: org.id,
      id: randomUUID(),
      project_id: projectId,
      number: n,
      title: uniq('Recurring'),
      status: 'in_progress',
      created_by_member_id: org.ownerMemberId,
      ...cols,
    };
    const keys = Object.keys(row);
    await t.db.query(`INSERT INTO issues (${keys.join(', ')}) VALUES (${keys.map((_, i) => `$${i + 1}`).join(', ')})`, Object.values(row));
    return (await t.db.manager.findOneBy(IssueEntity, { orgId: org.id, id: row.id as string }))!;
  }

  const children = (id: string): Promise<Array<Record<string, any>>> =>
    t.db.query(
      `SELECT id, number, title, description, status, priority, project_id, assignee_id, due_date::text AS due_date, start_date::text AS start_date,
              recurrence_type, recurrence_interval, recurrence_mode, recurrence_days, recurrence_time, recurrence_timezone,
              recurrence_next_run_at, recurrence_source_id, created_by_member_id, completed_at
         FROM issues WHERE org_id = $1 AND recurrence_source_id = $2`,
      [org.id, id],
    );

  describe('completion mode (RecurrenceService.onCompleted)', () => {
    it('creates the next occurrence with copied fields, assignees and labels, status = first board column', async () => {
      // make `todo` the first column of the project
      await t.db.query(
        `UPDATE board_columns SET position = CASE key WHEN 'todo' THEN 0 WHEN 'backlog' THEN 1 ELSE position END WHERE org_id = $1 AND project_id = $2`,
        [org.id, project.id],
      );
      const labelId = randomUUID();
      await t.db.query('INSERT INTO labels (org_id, id, name) VALUES ($1, $2, $3)', [org.id, labelId, uniq('lbl')]);
      const src = await insertIssue({
        description: 'weekly report',
        priority: 1,
        assignee_id: org.ownerMemberId,
        start_date: '2026-01-26',
        due_date: '2026-01-31',
        recurrence_type: 'monthly',
        recurrence_interval: 1,
        recurrence_mode: 'completion',
        status: 'done',
      });
      await t.db.query('INSERT INTO issue_assignees (org_id, issue_id, member_id, position) VALUES ($1, $2, $3, 0)', [org.id, src.id, org.ownerMemberId]);
      await t.db.query('INSERT INTO issue_labels (org_id, issue_id, label_id) VALUES ($1, $2, $3)', [org.id, src.id, labelId]);

      const next = await t.db.transaction((m) => service.onCompleted(m, src));
      expect(next).not.toBeNull();
      const [child] = await children(src.id);
      expect(child).toMatchObject({
        id: next!.id,
        title: src.title,
        description: 'weekly report',
        priority: 1,
        status: 'todo',
        project_id: project.id,
        assignee_id: org.ownerMemberId,
        due_date: '2026-02-28', // Jan 31 + 1 month, clamped
        start_date: '2026-02-23', // same 5-day lead
        recurrence_type: 'monthly',
        recurrence_interval: 1,
        recurrence_mode: 'completion',
        recurrence_next_run_at: null,
        created_by_member_id: org.ownerMemberId,
        completed_at: null,
      });
      expect(child.number).toBe(src.number + 1);
      const a = await t.db.query('SELECT member_id FROM issue_assignees WHERE org_id = $1 AND issue_id = $2', [org.id, child.id]);
      expect(a).toEqual([{ member_id: org.ownerMemberId }]);
      const l = await t.db.query('SELECT label_id FROM issue_labels WHERE org_id = $1 AND issue_id = $2', [org.id, child.id]);
      expect(l).toEqual([{ label_id: labelId }]);

      // a second completion of the same occurrence creates nothing
      expect(await t.db.transaction((m) => service.onCompleted(m, src))).toBeNull();
      expect(await children(src.id)).toHaveLength(1);
    });

    it('two racing transactions create exactly one occurrence and keep numbering gap-free', async () => {
      const src = await insertIssue({
        due_date: '2028-02-28',
        recurrence_type: 'daily',
        recurrence_interval: 1,
        recurrence_mode: 'completion',
        status: 'done',
      });
      const results = await Promise.all([t.db.transaction((m) => service.onCompleted(m, src)), t.db.transaction((m) => service.onCompleted(m, src))]);
      expect(results.filter(Boolean)).toHaveLength(1);
      const rows = await children(src.id);
      expect(rows).toHaveLength(1);
      expect(rows[0].due_date).toBe('2028-02-29');
      const [{ issue_seq }] = await t.db.query('SELECT issue_seq FROM projects WHERE org_id = $1 AND id = $2', [org.id, project.id]);
      expect(issue_seq).toBe(rows[0].number);
    });

    it('without a due date the base is today (UTC); projectless issues start in backlog', async () => {
      const src = await insertIssue({ project_id: null, recurrence_type: 'weekly', recurrence_interval: 2, recurrence_mode: 'completion', status: 'done' });
      const svc = new RecurrenceService(
        new FixedClock(new Date('2026-12-25T23:30:00Z')),
        t.app.get(RecurrenceRepository),
        t.app.get(IssuesRepository),
        t.app.get(BoardRepository),
      );
      await t.db.transaction((m) => svc.onCompleted(m, src));
      const [child] = await children(src.id);
      expect(child).toMatchObject({ due_date: '2027-01-08', status: 'backlog', project_id: null });
    });

    it('schedule-mode and non-recurring issues create nothing on completion', async () => {
      const sched = await insertIssue({
        recurrence_type: 'daily',
        recurrence_interval: 1,
        recurrence_mode: 'schedule',
        recurrence_time: '09:00',
        recurrence_timezone: 'UTC',
        status: 'done',
      });
      const plain = await insertIssue({ status: 'done' });
      expect(await t.db.transaction((m) => service.onCompleted(m, sched))).toBeNull();
      expect(await t.db.transaction((m) => service.onCompleted(m, plain))).toBeNull();
      expect(await children(sched.id)).toHaveLength(0);
      expect(await children(plain.id)).toHaveLength(0);
    });
  });

  describe('schedule mode (sweep)', () => {
    let sweeper: RecurrenceSweepProcessor;
    beforeEach(async () => {
      // a fresh organization per test: the sweep of one test must not see another test's due rows
      org = await newOrg(t);
      project = await newProject(t, org);
    });
    beforeAll(() => {
      sweeper = new RecurrenceSweepProcessor(
        t.db,
        new FixedClock(new Date()),
        service,
        t.app.get(PlanService),
        t.app.get(DomainEvents),
        t.app.get(RecurrenceRepository),
        t.app.get(IssuesRepository),
      );
    });

    it('creates one occurrence per due run across the Berlin spring-forward, and advances the cursor', async () => {
      const src = await insertIssue({
        due_date: '2026-03-28',
        recurrence_type: 'daily',
        recurrence_interval: 1,
        recurrence_mode: 'schedule',
        recurrence_time: '09:00',
        recurrence_timezone: 'Europe/Berlin',
        recurrence_next_run_at: new Date('2026-03-29T07:00:00Z'), // 09:00 CEST
      });
      // not due yet
      expect(await sweeper.sweep(new Date('2026-03-29T06:59:59Z'), { orgId: org.id })).toEqual({ created: 0, skipped: 0, failed: 0 });

      const now = new Date('2026-03-29T07:00:30Z');
      expect((await sweeper.sweep(now, { orgId: org.id })).created).toBe(1);
      const [first] = await children(src.id);
      expect(first).toMatchObject({ due_date: '2026-03-29', status: 'backlog', recurrence_mode: 'schedule', recurrence_timezone: 'Europe/Berlin' });
      expect(new Date(first.recurrence_next_run_at).toISOString()).toBe('2026-03-30T07:00:00.000Z');
      const [srcRow] = await t.db.query('SELECT status, recurrence_next_run_at FROM issues WHERE org_id = $1 AND id = $2', [org.id, src.id]);
      expect(srcRow).toEqual({ status: 'in_progress', recurrence_next_run_at: null }); // the current stays open

      // same run again: nothing
      expect((await sweeper.sweep(now, { orgId: org.id })).created).toBe(0);
      expect(await children(src.id)).toHaveLength(1);

      // next day's run creates the next one, from the new occurrence. The sweep skips rows other
      // transactions hold (FOR UPDATE SKIP LOCKED), and the first occurrence's after-commit
      // handlers may still hold a key-share lock on it (rows referencing it): a later sweep picks it.
      let created = 0;
      expect(await eventually(async () => (created += (await sweeper.sweep(new Date('2026-03-30T07:01:00Z'), { orgId: org.id })).created) > 0)).toBe(true);
      expect(created).toBe(1);
      const [second] = await children(first.id);
      expect(second.due_date).toBe('2026-03-30');
      expect(new Date(second.recurrence_next_run_at).toISOString()).toBe('2026-03-31T07:00:00.000Z');
    });

    it('two concurrent sweeps create the occurrence once', async () => {
      const src = await insertIssue({
        recurrence_type: 'weekly',
        recurrence_interval: 1,
        recurrence_days: ['mon', 'thu'],
        recurrence_mode: 'schedule',
        recurrence_time: '01:30',
        recurrence_timezone: 'America/New_York',
        recurrence_next_run_at: new Date('2026-10-29T05:30:00Z'), // Thu 01:30 EDT
      });
      const now = new Date('2026-10-29T06:00:00Z');
      const [a, b] = await Promise.all([sweeper.sweep(now, { orgId: org.id }), sweeper.sweep(now, { orgId: org.id })]);
      expect(a.created + b.created).toBe(1);
      const rows = await children(src.id);
      expect(rows).toHaveLength(1);
      expect(rows[0].due_date).toBe('2026-10-29');
      expect(rows[0].recurrence_days).toEqual(['mon', 'thu']);
      // next listed weekday: Monday Nov 2, 01:30 EST (after the Nov 1 fall back)
      expect(new Date(rows[0].recurrence_next_run_at).toISOString()).toBe('2026-11-02T06:30:00.000Z');
    });

    it('archived issues and issues of archived projects are not swept', async () => {
      const archived = await insertIssue({
        recurrence_type: 'daily',
        recurrence_interval: 1,
        recurrence_mode: 'schedule',
        recurrence_time: '09:00',
        recurrence_timezone: 'UTC',
        recurrence_next_run_at: new Date('2026-05-01T09:00:00Z'),
        archived_at: new Date('2026-04-01T00:00:00Z'),
      });
      const other = await newProject(t, org);
      await t.db.query(`UPDATE projects SET status = 'archived' WHERE org_id = $1 AND id = $2`, [org.id, other.id]);
      const inArchivedProject = await insertIssue({
        project_id: other.id,
        recurrence_type: 'daily',
        recurrence_interval: 1,
        recurrence_mode: 'schedule',
        recurrence_time: '09:00',
        recurrence_timezone: 'UTC',
        recurrence_next_run_at: new Date('2026-05-01T09:00:00Z'),
      });
      await sweeper.sweep(new Date('2026-05-01T09:05:00Z'), { orgId: org.id });
      expect(await children(archived.id)).toHaveLength(0);
      expect(await children(inArchivedProject.id)).toHaveLength(0);
    });
  });
});
