import { Injectable } from '@nestjs/common';
import { type Tx, Sql } from '../../database/sql.service';
import type { IssueEntity } from './entities/issue.entity';

/** The savepoints recurrence writes run under (a fixed set). */
export type RecurrenceSavepoint = 'recurrence_occurrence' | 'recurrence_sweep_row';

/** A generated occurrence: the source's copied fields with its own id, number, status and dates. */
export interface OccurrenceRow {
  orgId: string;
  id: string;
  number: number;
  status: string;
  startDate: string | null;
  dueDate: string;
  nextRunAt: Date | null;
  source: IssueEntity;
}

/**
 * Statements of recurring issues: the scheduled sweep's due occurrences, the recurrence cursor
 * (`recurrence_next_run_at`) and generated occurrences (the issue row and its copied assignee and
 * label links), under savepoints of the caller's transaction.
 */
@Injectable()
export class RecurrenceRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * Schedule-mode issues whose cursor is due at `now` (oldest first, at most `limit`; one
   * organization or all), locked with SKIP LOCKED so concurrent sweeps split the work. Issues of
   * archived projects wait until the project is active again.
   */
  dueScheduled(now: Date, limit: number, orgId: string | null, m: Tx): Promise<Array<{ org_id: string; id: string }>> {
    return this.sql.rows<{ org_id: string; id: string }>(
      `SELECT i.org_id, i.id FROM issues i
            WHERE i.recurrence_mode = 'schedule' AND i.recurrence_next_run_at IS NOT NULL AND i.recurrence_next_run_at <= $1
              AND i.recurrence_type IS NOT NULL AND i.archived_at IS NULL
              AND ($3::uuid IS NULL OR i.org_id = $3)
              AND (i.project_id IS NULL OR EXISTS (
                SELECT 1 FROM projects p WHERE p.org_id = i.org_id AND p.id = i.project_id AND p.status = 'active'))
            ORDER BY i.recurrence_next_run_at ASC
            LIMIT $2
            FOR UPDATE OF i SKIP LOCKED`,
      [now, limit, orgId],
      m,
    );
  }

  /** Sets (or clears, with null) the recurrence cursor of issue `id`. */
  async setNextRun(orgId: string, id: string, runAt: Date | null, m: Tx): Promise<void> {
    if (runAt === null) await this.sql.run('UPDATE issues SET recurrence_next_run_at = NULL WHERE org_id = $1 AND id = $2', [orgId, id], m);
    else await this.sql.run('UPDATE issues SET recurrence_next_run_at = $3 WHERE org_id = $1 AND id = $2', [orgId, id, runAt], m);
  }

  /** Whether occurrence `sourceId` already has its successor. */
  async hasSuccessor(orgId: string, sourceId: string, m: Tx): Promise<boolean> {
    return !!(await this.sql.row('SELECT 1 FROM issues WHERE org_id = $1 AND recurrence_source_id = $2 LIMIT 1', [orgId, sourceId], m));
  }

  /** Inserts the successor of `o.source`; false when it already exists (a concurrent transaction won). */
  async insertOccurrence(o: OccurrenceRow, m: Tx): Promise<boolean> {
    const s = o.source;
    const rows = await this.sql.rows<{ id: string }>(
      `INSERT INTO issues (org_id, id, project_id, number, title, description, status, priority, assignee_id, team_id,
           milestone_id, parent_id, start_date, due_date, recurrence_type, recurrence_interval, recurrence_days, recurrence_mode,
           recurrence_time, recurrence_timezone, recurrence_next_run_at, recurrence_source_id, created_by_member_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23)
         ON CONFLICT (org_id, recurrence_source_id) WHERE recurrence_source_id IS NOT NULL DO NOTHING
         RETURNING id`,
      [
        o.orgId,
        o.id,
        s.projectId,
        o.number,
        s.title,
        s.description,
        o.status,
        s.priority,
        s.assigneeId,
        s.teamId,
        s.milestoneId,
        s.parentId,
        o.startDate,
        o.dueDate,
        s.recurrenceType,
        s.recurrenceInterval,
        s.recurrenceDays,
        s.recurrenceMode,
        s.recurrenceTime,
        s.recurrenceTimezone,
        o.nextRunAt,
        s.id,
        s.createdByMemberId,
      ],
      m,
    );
    return rows.length > 0;
  }

  /** Copies the assignees of issue `sourceId` to issue `id` (same positions). */
  async copyAssignees(orgId: string, sourceId: string, id: string, m: Tx): Promise<void> {
    await this.sql.run(
      `INSERT INTO issue_assignees (org_id, issue_id, member_id, position)
         SELECT org_id, $3, member_id, position FROM issue_assignees WHERE org_id = $1 AND issue_id = $2`,
      [orgId, sourceId, id],
      m,
    );
  }

  /** Copies the labels of issue `sourceId` to issue `id`. */
  async copyLabels(orgId: string, sourceId: string, id: string, m: Tx): Promise<void> {
    await this.sql.run(
      `INSERT INTO issue_labels (org_id, issue_id, label_id)
         SELECT org_id, $3, label_id FROM issue_labels WHERE org_id = $1 AND issue_id = $2`,
      [orgId, sourceId, id],
      m,
    );
  }

  /** Opens savepoint `name` in the caller's transaction. */
  async savepoint(name: RecurrenceSavepoint, m: Tx): Promise<void> {
    await this.sql.planned(`SAVEPOINT ${name}`, [], m);
  }

  /** Rolls the caller's transaction back to savepoint `name` (which stays open). */
  async rollbackTo(name: RecurrenceSavepoint, m: Tx): Promise<void> {
    await this.sql.planned(`ROLLBACK TO SAVEPOINT ${name}`, [], m);
  }

  /** Releases savepoint `name`. */
  async release(name: RecurrenceSavepoint, m: Tx): Promise<void> {
    await this.sql.planned(`RELEASE SAVEPOINT ${name}`, [], m);
  }
}
