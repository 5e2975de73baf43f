import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { IssueEntity } from '../issues/entities/issue.entity';
import { nextIssueNumber } from '../issues/issue-numbering';
import { dateOnly, nextDueDate, recurrenceStateOf, utcDate } from './recurrence.rules';

const DAY_MS = 86_400_000;
const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

/**
 * Generates the next occurrence of a recurring issue. Every call runs inside the caller's
 * transaction; the unique index `issues_recurrence_once_uq` (org_id, recurrence_source_id) makes
 * an occurrence's successor exist at most once, even when two transactions race.
 */
@Injectable()
export class RecurrenceService {
  constructor(private readonly clock: Clock) {}

  /**
   * Completion mode: called inside the update transaction when a recurring issue moves to `done`.
   * Returns the new issue, or null when nothing was created (not recurring, schedule mode, or the
   * successor already exists). The caller publishes `issue.created` for the returned issue after commit.
   */
  async onCompleted(m: EntityManager, issue: IssueEntity): Promise<IssueEntity | null> {
    const state = recurrenceStateOf(issue);
    if (!state || state.recurrenceMode !== 'completion') return null;
    const base = issue.dueDate ? dateOnly(issue.dueDate) : utcDate(this.clock.now());
    const dueDate = nextDueDate(state.recurrenceType, state.recurrenceInterval, base);
    if (!dueDate) return null; // past 9999-12-31: the series ends
    return this.createOccurrence(m, issue, { dueDate, nextRunAt: null });
  }

  /**
   * Creates the successor of `source` (title, description, project, priority, team, milestone,
   * parent, assignees, labels, recurrence settings, creator) with the given due date, the project's
   * first board column as status (`backlog` when projectless or without columns) and a fresh number.
   * A start date moves with the due date (same gap). Null when `source` already has a successor.
   * Must run inside a transaction (it uses a savepoint so a lost race does not abort the caller).
   */
  async createOccurrence(m: EntityManager, source: IssueEntity, opts: { dueDate: string; nextRunAt: Date | null }): Promise<IssueEntity | null> {
    const orgId = source.orgId;
    const existing: unknown[] = await m.query('SELECT 1 FROM issues WHERE org_id = $1 AND recurrence_source_id = $2 LIMIT 1', [orgId, source.id]);
    if (existing.length) return null;

    await m.query('SAVEPOINT recurrence_occurrence');
    try {
      let status = 'backlog';
      if (source.projectId) {
        const cols: Array<{ key: string }> = await m.query(
          'SELECT key FROM board_columns WHERE org_id = $1 AND project_id = $2 ORDER BY position ASC LIMIT 1',
          [orgId, source.projectId],
        );
        if (cols.length) status = cols[0].key;
      }
      let startDate: string | null = null;
      if (source.startDate && source.dueDate) {
        startDate = addDays(opts.dueDate, -daysBetween(dateOnly(source.startDate), dateOnly(source.dueDate)));
      }
      let number: number = await nextIssueNumber(m, orgId, source.projectId);
      if (!Number.isInteger(number)) {
        // TypeORM returns `[rows, count]` for UPDATE … RETURNING; read the counter we just bumped (row locked by us)
        const seq: Array<{ n: number }> = source.projectId
          ? await m.query('SELECT issue_seq AS n FROM projects WHERE org_id = $1 AND id = $2', [orgId, source.projectId])
          : await m.query('SELECT issue_seq AS n FROM organizations WHERE id = $1', [orgId]);
        number = seq[0].n;
      }
      const id = randomUUID();
      const inserted: Array<{ id: string }> = await m.query(
        `INSERT INTO issues (org_id, id, project_id, number, title, description, status, priority, assignee_id, team_id,
           milestone_id, parent_id, start_date, due_date, recurrence_type, recurrence_interval, recurrence_days, recurrence_mode,
           recurrence_time, recurrence_timezone, recurrence_next_run_at, recurrence_source_id, created_by_member_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23)
         ON CONFLICT (org_id, recurrence_source_id) WHERE recurrence_source_id IS NOT NULL DO NOTHING
         RETURNING id`,
        [
          orgId,
          id,
          source.projectId,
          number,
          source.title,
          source.description,
          status,
          source.priority,
          source.assigneeId,
          source.teamId,
          source.milestoneId,
          source.parentId,
          startDate,
          opts.dueDate,
          source.recurrenceType,
          source.recurrenceInterval,
          source.recurrenceDays,
          source.recurrenceMode,
          source.recurrenceTime,
          source.recurrenceTimezone,
          opts.nextRunAt,
          source.id,
          source.createdByMemberId,
        ],
      );
      if (!inserted.length) {
        // lost a race: undo the number too, so numbering stays gap-free
        await m.query('ROLLBACK TO SAVEPOINT recurrence_occurrence');
        await m.query('RELEASE SAVEPOINT recurrence_occurrence');
        return null;
      }
      await m.query(
        `INSERT INTO issue_assignees (org_id, issue_id, member_id, position)
         SELECT org_id, $3, member_id, position FROM issue_assignees WHERE org_id = $1 AND issue_id = $2`,
        [orgId, source.id, id],
      );
      await m.query(
        `INSERT INTO issue_labels (org_id, issue_id, label_id)
         SELECT org_id, $3, label_id FROM issue_labels WHERE org_id = $1 AND issue_id = $2`,
        [orgId, source.id, id],
      );
      await m.query('RELEASE SAVEPOINT recurrence_occurrence');
      return m.findOneByOrFail(IssueEntity, { orgId, id });
    } catch (e) {
      await m.query('ROLLBACK TO SAVEPOINT recurrence_occurrence').catch(() => undefined);
      throw e;
    }
  }
}
