import { Injectable } from '@nestjs/common';
import type { IssueFacts } from '../../common/events/domain-events';
import type { PlanName } from '../../config/config';
import { type Tx, Sql } from '../../database/sql.service';
import { blockedIssuesSql } from '../dependencies/dependencies.repository';
import { IssueEntity } from './entities/issue.entity';
import type { IssueMemberResponse } from './issues.response';
import type { IssueAccessRow } from '../../common/access/access.repository';

/** The fields every issue projection starts with (compact list items, event payloads). */
export interface IssueCoreRow {
  id: string;
  number: number;
  title: string;
  status: string;
  priority: number;
  project_id: string | null;
}

/**
 * Every column of IssueEntity, as TypeORM hydrates it (dates as YYYY-MM-DD strings), prefixed
 * `r_` so the raw row can carry other columns too. Keep in step with IssueEntity.
 */
const ISSUE_ROW_COLUMNS = `i.org_id AS r_org_id, i.id AS r_id, i.project_id AS r_project_id, i.number AS r_number, i.title AS r_title,
  i.description AS r_description, i.status AS r_status, i.priority AS r_priority, i.assignee_id AS r_assignee_id, i.team_id AS r_team_id,
  i.milestone_id AS r_milestone_id, i.parent_id AS r_parent_id,
  to_char(i.start_date, 'YYYY-MM-DD') AS r_start_date, to_char(i.due_date, 'YYYY-MM-DD') AS r_due_date, i.completed_at AS r_completed_at,
  i.recurrence_type AS r_recurrence_type, i.recurrence_interval AS r_recurrence_interval, i.recurrence_days AS r_recurrence_days,
  i.recurrence_mode AS r_recurrence_mode, i.recurrence_time AS r_recurrence_time, i.recurrence_timezone AS r_recurrence_timezone,
  i.recurrence_next_run_at AS r_recurrence_next_run_at, i.recurrence_source_id AS r_recurrence_source_id,
  i.created_by_member_id AS r_created_by_member_id, i.archived_at AS r_archived_at, i.created_at AS r_created_at, i.updated_at AS r_updated_at`;

/** An issue row selected with ISSUE_ROW_COLUMNS. */
export interface IssueRow {
  r_org_id: string;
  r_id: string;
  r_project_id: string | null;
  r_number: number;
  r_title: string;
  r_description: string | null;
  r_status: string;
  r_priority: number;
  r_assignee_id: string | null;
  r_team_id: string | null;
  r_milestone_id: string | null;
  r_parent_id: string | null;
  r_start_date: string | null;
  r_due_date: string | null;
  r_completed_at: Date | null;
  r_recurrence_type: IssueEntity['recurrenceType'];
  r_recurrence_interval: number | null;
  r_recurrence_days: IssueEntity['recurrenceDays'];
  r_recurrence_mode: IssueEntity['recurrenceMode'];
  r_recurrence_time: string | null;
  r_recurrence_timezone: string | null;
  r_recurrence_next_run_at: Date | null;
  r_recurrence_source_id: string | null;
  r_created_by_member_id: string | null;
  r_archived_at: Date | null;
  r_created_at: Date;
  r_updated_at: Date;
}

/** IssueEntity from a row selected with ISSUE_ROW_COLUMNS. */
export function issueFromRow(r: IssueRow): IssueEntity {
  return Object.assign(new IssueEntity(), {
    orgId: r.r_org_id,
    id: r.r_id,
    projectId: r.r_project_id,
    number: r.r_number,
    title: r.r_title,
    description: r.r_description,
    status: r.r_status,
    priority: r.r_priority,
    assigneeId: r.r_assignee_id,
    teamId: r.r_team_id,
    milestoneId: r.r_milestone_id,
    parentId: r.r_parent_id,
    startDate: r.r_start_date,
    dueDate: r.r_due_date,
    completedAt: r.r_completed_at,
    recurrenceType: r.r_recurrence_type,
    recurrenceInterval: r.r_recurrence_interval,
    recurrenceDays: r.r_recurrence_days,
    recurrenceMode: r.r_recurrence_mode,
    recurrenceTime: r.r_recurrence_time,
    recurrenceTimezone: r.r_recurrence_timezone,
    recurrenceNextRunAt: r.r_recurrence_next_run_at,
    recurrenceSourceId: r.r_recurrence_source_id,
    createdByMemberId: r.r_created_by_member_id,
    archivedAt: r.r_archived_at,
    createdAt: r.r_created_at,
    updatedAt: r.r_updated_at,
  });
}

/** One entry of an issue's artifact manifest. */
export interface ArtifactManifestRow {
  id: string;
  type: string;
  title: string;
  current_revision_id: string;
  revision_number: number;
  created_at: Date;
  updated_at: Date;
}

/** What the issue detail shows beyond the issue row (IssuesRepository.detailRow). */
export interface DetailExtras {
  project_key: string | null;
  project_slug: string | null;
  assignee_ids: string[];
  label_ids: string[];
  members: IssueMemberResponse[];
  labels: Array<{ id: string; name: string; color: string | null }>;
  milestone: { id: string; name: string } | null;
  subs: Array<{ id: string; number: number; title: string; status: string; key: string | null; project_id: string | null }>;
  blocked: boolean;
}

/** An issue as found by reference (IssueReferenceResolver), with its project's key. */
export interface IssueRefRow extends IssueAccessRow {
  key: string | null;
}

/** A label on an issue (the issue label routes). */
export interface IssueLabelRow {
  id: string;
  name: string;
  color: string | null;
  description: string | null;
}

/** Columns an issue update may set: entity property → column. */
const UPDATABLE: Record<string, string> = {
  projectId: 'project_id',
  number: 'number',
  title: 'title',
  description: 'description',
  status: 'status',
  priority: 'priority',
  assigneeId: 'assignee_id',
  teamId: 'team_id',
  milestoneId: 'milestone_id',
  parentId: 'parent_id',
  startDate: 'start_date',
  dueDate: 'due_date',
  completedAt: 'completed_at',
  recurrenceType: 'recurrence_type',
  recurrenceInterval: 'recurrence_interval',
  recurrenceDays: 'recurrence_days',
  recurrenceMode: 'recurrence_mode',
  recurrenceTime: 'recurrence_time',
  recurrenceTimezone: 'recurrence_timezone',
  recurrenceNextRunAt: 'recurrence_next_run_at',
  recurrenceSourceId: 'recurrence_source_id',
  createdByMemberId: 'created_by_member_id',
  archivedAt: 'archived_at',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
};

/** The fields of an issue an update may change. */
export type IssuePatch = Partial<Omit<IssueEntity, 'orgId' | 'id'>>;

/** A project new issues go to, as the creating transaction reads it. */
export interface TargetProjectRow {
  id: string;
  key: string;
  slug: string;
  /** Its board column keys, in board order. */
  column_keys: string[];
}

/** How many webhooks and automation rules the organization has (`effect_presence`; DomainEvents.notePresence). */
export interface PresenceColumns {
  webhooks: number;
  automation_rules: number;
}

/** The locked issue an update starts from: the row and everything its response and events need. */
export interface LockedIssueRow extends IssueRow, PresenceColumns {
  project_key: string | null;
  project_slug: string | null;
  /** Assignees, primary first. */
  assignee_ids: string[];
  label_ids: string[];
  /** The board column keys of the issue's project (empty when projectless). */
  column_keys: string[];
}

/** The columns of a new issue row, in the order insertNumbered writes them (the number comes from the counter). */
const NEW_ISSUE_RECORD = `t(n int, id uuid, title text, description text, status text, priority smallint, assignee_id uuid, team_id uuid, milestone_id uuid,
  parent_id uuid, start_date date, due_date date, completed_at timestamptz, recurrence_type text, recurrence_interval int, recurrence_days text[],
  recurrence_mode text, recurrence_time text, recurrence_timezone text, recurrence_next_run_at timestamptz, recurrence_source_id uuid,
  created_by_member_id uuid, archived_at timestamptz, created_at timestamptz, updated_at timestamptz)`;
const INSERT_NUMBERED = (counter: string, projectId: string) => `WITH seq AS (${counter})
  INSERT INTO issues (org_id, id, project_id, number, title, description, status, priority, assignee_id, team_id, milestone_id, parent_id,
         start_date, due_date, completed_at, recurrence_type, recurrence_interval, recurrence_days, recurrence_mode, recurrence_time,
         recurrence_timezone, recurrence_next_run_at, recurrence_source_id, created_by_member_id, archived_at, created_at, updated_at)
  SELECT $1, t.id, ${projectId}, seq.base + t.n, t.title, t.description, t.status, t.priority, t.assignee_id, t.team_id, t.milestone_id, t.parent_id,
         t.start_date, t.due_date, t.completed_at, t.recurrence_type, t.recurrence_interval, t.recurrence_days, t.recurrence_mode, t.recurrence_time,
         t.recurrence_timezone, t.recurrence_next_run_at, t.recurrence_source_id, t.created_by_member_id, t.archived_at, t.created_at, t.updated_at
    FROM seq, jsonb_to_recordset($4::jsonb) AS ${NEW_ISSUE_RECORD}
   ORDER BY t.n
  RETURNING id, number`;
/** New issues of a project: its counter row (locked until commit) gives the numbers. */
const INSERT_NUMBERED_IN_PROJECT = INSERT_NUMBERED(
  'UPDATE projects SET issue_seq = issue_seq + $3 WHERE org_id = $1 AND id = $2 RETURNING issue_seq - $3 AS base',
  '$2::uuid',
);
/** New projectless issues: the organization's counter. `$2` is unused (null) so both texts take the same parameters. */
const INSERT_NUMBERED_PROJECTLESS = INSERT_NUMBERED(
  'UPDATE organizations SET issue_seq = issue_seq + $3 WHERE id = $1 AND $2::uuid IS NULL RETURNING issue_seq - $3 AS base',
  'NULL::uuid',
);

const DETAIL_SQL = `WITH a AS (SELECT member_id, position, created_at FROM issue_assignees WHERE org_id = $1 AND issue_id = $2),
            l AS (SELECT label_id, created_at FROM issue_labels WHERE org_id = $1 AND issue_id = $2)
       SELECT ${ISSUE_ROW_COLUMNS}, p.key AS project_key, p.slug AS project_slug,
              ARRAY(SELECT a.member_id::text FROM a ORDER BY a.position, a.created_at, a.member_id) AS assignee_ids,
              ARRAY(SELECT l.label_id::text FROM l ORDER BY l.created_at, l.label_id) AS label_ids,
              (SELECT coalesce(json_agg(json_build_object('id', mb.id, 'display_name', mb.display_name, 'type', mb.type, 'avatar_url', mb.avatar_url)), '[]'::json)
                 FROM members mb WHERE mb.org_id = i.org_id AND (mb.id = i.created_by_member_id OR mb.id IN (SELECT a.member_id FROM a))) AS members,
              (SELECT coalesce(json_agg(json_build_object('id', lb.id, 'name', lb.name, 'color', lb.color) ORDER BY lower(lb.name), lb.id), '[]'::json)
                 FROM labels lb WHERE lb.org_id = i.org_id AND lb.id IN (SELECT l.label_id FROM l)) AS labels,
              (SELECT json_build_object('id', ms.id, 'name', ms.name) FROM milestones ms WHERE ms.org_id = i.org_id AND ms.id = i.milestone_id) AS milestone,
              (SELECT coalesce(json_agg(json_build_object('id', s.id, 'number', s.number, 'title', s.title, 'status', s.status, 'key', sp.key, 'project_id', s.project_id) ORDER BY s.created_at, s.id), '[]'::json)
                 FROM issues s LEFT JOIN projects sp ON sp.org_id = s.org_id AND sp.id = s.project_id
                WHERE s.org_id = i.org_id AND s.parent_id = i.id) AS subs,
              ${blockedIssuesSql('i')} AS blocked
         FROM issues i LEFT JOIN projects p ON p.org_id = i.org_id AND p.id = i.project_id
        WHERE i.org_id = $1 AND i.id = $2`;

/** The reference look-up: `where` is one of two fixed fragments (by id, by number). */
const BY_REFERENCE_SQL = (where: string): string => `SELECT i.id, i.project_id, i.number, i.title, i.status, i.archived_at, p.key
         FROM issues i LEFT JOIN projects p ON p.org_id = i.org_id AND p.id = i.project_id
        WHERE i.org_id = $1 AND ${where} ORDER BY i.created_at, i.id LIMIT 10000`;
const BY_ID_SQL = BY_REFERENCE_SQL('i.id = $2');
const BY_NUMBER_SQL = BY_REFERENCE_SQL('i.number = $2');

/**
 * Statements of the issue aggregate: `issues` rows, their assignee and label links, numbering,
 * the detail read model and the reference look-ups.
 */
@Injectable()
export class IssuesRepository {
  constructor(private readonly sql: Sql) {}

  /** Issue `id`, or null. */
  async findById(orgId: string, id: string, m?: Tx): Promise<IssueEntity | null> {
    const row = await this.sql.row<IssueRow>(`SELECT ${ISSUE_ROW_COLUMNS} FROM issues i WHERE i.org_id = $1 AND i.id = $2`, [orgId, id], m);
    return row ? issueFromRow(row) : null;
  }

  /**
   * Issue `id`, locked until the transaction ends, or null: `FOR NO KEY UPDATE`, which still lets
   * inserts that reference the issue (comments, timeline entries, sub-tasks: their foreign-key
   * checks take KEY SHARE) through; `FOR UPDATE` when the writer will change a key column (a project
   * move changes `project_id` and `number`), so it never has to upgrade its lock later.
   */
  async lockById(orgId: string, id: string, m: Tx, keyChange = false): Promise<IssueEntity | null> {
    const row = keyChange
      ? await this.sql.row<IssueRow>(`SELECT ${ISSUE_ROW_COLUMNS} FROM issues i WHERE i.org_id = $1 AND i.id = $2 FOR UPDATE`, [orgId, id], m)
      : await this.sql.row<IssueRow>(`SELECT ${ISSUE_ROW_COLUMNS} FROM issues i WHERE i.org_id = $1 AND i.id = $2 FOR NO KEY UPDATE`, [orgId, id], m);
    return row ? issueFromRow(row) : null;
  }

  /**
   * Issue `id` locked for an update (as lockById), with its project's key, slug and column keys,
   * its assignees and labels, and how many webhooks and automation rules the organization has:
   * everything the update, its events and its response need, in one statement.
   */
  async lockForUpdate(orgId: string, id: string, m: Tx, keyChange = false): Promise<LockedIssueRow | undefined> {
    const select = `SELECT ${ISSUE_ROW_COLUMNS}, p.key AS project_key, p.slug AS project_slug,
            ARRAY(SELECT a.member_id::text FROM issue_assignees a WHERE a.org_id = i.org_id AND a.issue_id = i.id ORDER BY a.position, a.created_at, a.member_id) AS assignee_ids,
            ARRAY(SELECT l.label_id::text FROM issue_labels l WHERE l.org_id = i.org_id AND l.issue_id = i.id ORDER BY l.created_at, l.label_id) AS label_ids,
            ARRAY(SELECT c.key FROM board_columns c WHERE c.org_id = i.org_id AND c.project_id = i.project_id ORDER BY c.position) AS column_keys,
            coalesce(ep.webhooks, 0) AS webhooks, coalesce(ep.automation_rules, 0) AS automation_rules
       FROM issues i LEFT JOIN projects p ON p.org_id = i.org_id AND p.id = i.project_id
       LEFT JOIN effect_presence ep ON ep.org_id = i.org_id
      WHERE i.org_id = $1 AND i.id = $2`;
    return keyChange
      ? this.sql.row<LockedIssueRow>(`${select} FOR UPDATE OF i`, [orgId, id], m)
      : this.sql.row<LockedIssueRow>(`${select} FOR NO KEY UPDATE OF i`, [orgId, id], m);
  }

  /**
   * What creating issues in `projectIds` needs, in one statement: the organization's plan (no
   * lock: PlanService decides), each project that exists with its key, slug and column keys, and
   * how many webhooks and automation rules the organization has (look-ups of the projects,
   * organizations and effects data, on the write path).
   */
  async newIssueTargets(
    orgId: string,
    projectIds: string[],
    m: Tx,
  ): Promise<{ plan: PlanName | undefined; projects: TargetProjectRow[]; presence: PresenceColumns | undefined }> {
    const row = await this.sql.row<{ plan: PlanName; projects: TargetProjectRow[] } & PresenceColumns>(
      `SELECT o.plan,
              coalesce((SELECT json_agg(json_build_object('id', p.id, 'key', p.key, 'slug', p.slug,
                                 'column_keys', ARRAY(SELECT c.key FROM board_columns c WHERE c.org_id = p.org_id AND c.project_id = p.id ORDER BY c.position)))
                          FROM projects p WHERE p.org_id = o.id AND p.id = ANY($2::uuid[])), '[]'::json) AS projects,
              coalesce(ep.webhooks, 0) AS webhooks, coalesce(ep.automation_rules, 0) AS automation_rules
         FROM organizations o LEFT JOIN effect_presence ep ON ep.org_id = o.id WHERE o.id = $1`,
      [orgId, projectIds],
      m,
    );
    return { plan: row?.plan, projects: row?.projects ?? [], presence: row };
  }

  /**
   * Inserts new issues of ONE target (project `projectId`, or the organization's projectless
   * sequence for null) in one statement: the target's counter moves by their count (its row stays
   * locked until commit, so numbers are gap-free and unique under concurrent creates) and they get
   * the next numbers in the given order. Answers their numbers by id (empty when the project is gone).
   */
  async insertNumbered(orgId: string, projectId: string | null, issues: IssueEntity[], m: Tx): Promise<Map<string, number>> {
    const records = issues.map((i, n) => ({
      n: n + 1,
      id: i.id,
      title: i.title,
      description: i.description,
      status: i.status,
      priority: i.priority,
      assignee_id: i.assigneeId,
      team_id: i.teamId,
      milestone_id: i.milestoneId,
      parent_id: i.parentId,
      start_date: i.startDate,
      due_date: i.dueDate,
      completed_at: i.completedAt,
      recurrence_type: i.recurrenceType,
      recurrence_interval: i.recurrenceInterval,
      recurrence_days: i.recurrenceDays,
      recurrence_mode: i.recurrenceMode,
      recurrence_time: i.recurrenceTime,
      recurrence_timezone: i.recurrenceTimezone,
      recurrence_next_run_at: i.recurrenceNextRunAt,
      recurrence_source_id: i.recurrenceSourceId,
      created_by_member_id: i.createdByMemberId,
      archived_at: i.archivedAt,
      created_at: i.createdAt,
      updated_at: i.updatedAt,
    }));
    const rows = await this.sql.rows<{ id: string; number: number }>(
      projectId ? INSERT_NUMBERED_IN_PROJECT : INSERT_NUMBERED_PROJECTLESS,
      [orgId, projectId, issues.length, JSON.stringify(records)],
      m,
    );
    return new Map(rows.map((r) => [r.id, r.number]));
  }

  /** Inserts one issue row (every column given). */
  async insert(i: IssueEntity, m: Tx): Promise<void> {
    await this.sql.run(
      `INSERT INTO issues (org_id, id, project_id, number, title, description, status, priority, assignee_id, team_id, milestone_id, parent_id,
         start_date, due_date, completed_at, recurrence_type, recurrence_interval, recurrence_days, recurrence_mode, recurrence_time,
         recurrence_timezone, recurrence_next_run_at, recurrence_source_id, created_by_member_id, archived_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27)`,
      [
        i.orgId,
        i.id,
        i.projectId,
        i.number,
        i.title,
        i.description,
        i.status,
        i.priority,
        i.assigneeId,
        i.teamId,
        i.milestoneId,
        i.parentId,
        i.startDate,
        i.dueDate,
        i.completedAt,
        i.recurrenceType,
        i.recurrenceInterval,
        i.recurrenceDays,
        i.recurrenceMode,
        i.recurrenceTime,
        i.recurrenceTimezone,
        i.recurrenceNextRunAt,
        i.recurrenceSourceId,
        i.createdByMemberId,
        i.archivedAt,
        i.createdAt,
        i.updatedAt,
      ],
      m,
    );
  }

  /**
   * Sets the given fields of issue `id` and answers the row after the change. The column set comes
   * from a fixed list in a fixed order (UPDATABLE), so the texts are few: named prepared statements.
   */
  async updateReturning(orgId: string, id: string, patch: IssuePatch, m: Tx): Promise<IssueEntity | null> {
    const values: unknown[] = [orgId, id];
    const sets: string[] = [];
    for (const [key, column] of Object.entries(UPDATABLE)) {
      const value = (patch as Record<string, unknown>)[key];
      if (value === undefined) continue;
      values.push(value);
      sets.push(`${column} = $${values.length}`);
    }
    if (!sets.length) return this.findById(orgId, id, m);
    const row = await this.sql.row<IssueRow>(
      `UPDATE issues i SET ${sets.join(', ')} WHERE i.org_id = $1 AND i.id = $2 RETURNING ${ISSUE_ROW_COLUMNS}`,
      values,
      m,
    );
    return row ? issueFromRow(row) : null;
  }

  /** Sets the given fields of issue `id` (the column set varies with the patch: an unnamed statement). */
  async update(orgId: string, id: string, patch: IssuePatch, m: Tx): Promise<void> {
    const values: unknown[] = [orgId, id];
    const sets: string[] = [];
    for (const [key, value] of Object.entries(patch)) {
      const column = UPDATABLE[key];
      if (!column || value === undefined) continue;
      values.push(value);
      sets.push(`${column} = $${values.length}`);
    }
    if (!sets.length) return;
    await this.sql.planned(`UPDATE issues SET ${sets.join(', ')} WHERE org_id = $1 AND id = $2`, values, m);
  }

  /**
   * Deletes issue `id` (its links, comments, executions, dependencies and attachment rows go by
   * cascade). First clears what outlives it and points at it or its cascaded rows (foreign keys to it are NO ACTION, so the references are cleared first: migration 1765660000000, docs/CITUS.md): sub-tasks
   * lose their parent, recurrence copies their source, KPI snapshots their attribution, runner
   * leases the execution, and replies on other issues their replied-to comment.
   */
  async delete(orgId: string, id: string, m: Tx): Promise<void> {
    await this.sql.run('UPDATE issues SET parent_id = NULL WHERE org_id = $1 AND parent_id = $2', [orgId, id], m);
    await this.sql.run('UPDATE issues SET recurrence_source_id = NULL WHERE org_id = $1 AND recurrence_source_id = $2', [orgId, id], m);
    await this.sql.run('UPDATE kpi_snapshots SET attributed_to_issue_id = NULL WHERE org_id = $1 AND attributed_to_issue_id = $2', [orgId, id], m);
    await this.sql.run(
      'UPDATE runner_leases SET execution_id = NULL WHERE org_id = $1 AND execution_id IN (SELECT e.id FROM agent_executions e WHERE e.org_id = $1 AND e.issue_id = $2)',
      [orgId, id],
      m,
    );
    await this.sql.run(
      `UPDATE comments c SET reply_to_comment_id = NULL FROM comments t
        WHERE c.org_id = $1 AND t.org_id = $1 AND t.id = c.reply_to_comment_id AND t.issue_id = $2 AND c.issue_id <> $2`,
      [orgId, id],
      m,
    );
    await this.sql.run('DELETE FROM issues WHERE org_id = $1 AND id = $2', [orgId, id], m);
  }

  /** Bumps issue `id`'s updated_at. */
  async touch(orgId: string, id: string, m?: Tx): Promise<void> {
    await this.sql.run('UPDATE issues SET updated_at = now() WHERE org_id = $1 AND id = $2', [orgId, id], m);
  }

  /** Detaches every sub-task of `parentId` from it. */
  async detachChildren(orgId: string, parentId: string, m: Tx): Promise<void> {
    await this.sql.run('UPDATE issues SET parent_id = NULL, updated_at = now() WHERE org_id = $1 AND parent_id = $2', [orgId, parentId], m);
  }

  /**
   * Next issue number, inside the creating transaction: one sequence per project (projects.issue_seq),
   * one shared by the organization's projectless issues (organizations.issue_seq). The counter row
   * stays locked until commit, so numbers are gap-free and duplicate-free under concurrent creates.
   */
  async nextNumber(orgId: string, projectId: string | null, m: Tx): Promise<number> {
    const row = projectId
      ? await this.sql.row<{ n: number }>(
          'UPDATE projects SET issue_seq = issue_seq + 1 WHERE org_id = $1 AND id = $2 RETURNING issue_seq AS n',
          [orgId, projectId],
          m,
        )
      : await this.sql.row<{ n: number }>('UPDATE organizations SET issue_seq = issue_seq + 1 WHERE id = $1 RETURNING issue_seq AS n', [orgId], m);
    if (!row) throw new Error(`issue counter row missing for ${projectId ?? orgId}`);
    return row.n;
  }

  /** The decision-relevant state of issues (the facts domain events carry), by id. */
  async facts(orgId: string, ids: string[], m?: Tx): Promise<Map<string, IssueFacts>> {
    if (!ids.length) return new Map();
    const rows = await this.sql.rows<{
      id: string;
      status: string;
      priority: number;
      project_id: string | null;
      title: string;
      number: number;
      created_by_member_id: string | null;
      archived: boolean;
      milestone_id: string | null;
      assignee_ids: string[];
    }>(
      `SELECT i.id, i.status, i.priority, i.project_id, i.title, i.number, i.created_by_member_id, i.archived_at IS NOT NULL AS archived, i.milestone_id,
            COALESCE((SELECT array_agg(a.member_id ORDER BY a.position, a.created_at, a.member_id) FROM issue_assignees a
                       WHERE a.org_id = i.org_id AND a.issue_id = i.id), '{}') AS assignee_ids
       FROM issues i WHERE i.org_id = $1 AND i.id = ANY($2::uuid[])`,
      [orgId, ids],
      m,
    );
    return new Map(
      rows.map((r) => [
        r.id,
        {
          status: r.status,
          priority: r.priority,
          projectId: r.project_id,
          assigneeIds: r.assignee_ids,
          title: r.title,
          number: r.number,
          createdByMemberId: r.created_by_member_id,
          archived: r.archived,
          milestoneId: r.milestone_id,
        },
      ]),
    );
  }

  /** Member ids assigned to issue `issueId` (unordered). */
  async assigneeIds(orgId: string, issueId: string, m?: Tx): Promise<string[]> {
    const rows = await this.sql.rows<{ member_id: string }>('SELECT member_id FROM issue_assignees WHERE org_id = $1 AND issue_id = $2', [orgId, issueId], m);
    return rows.map((r) => r.member_id);
  }

  /** Removes every assignee of issue `issueId`. */
  async clearAssignees(orgId: string, issueId: string, m: Tx): Promise<void> {
    await this.sql.run('DELETE FROM issue_assignees WHERE org_id = $1 AND issue_id = $2', [orgId, issueId], m);
  }

  /** Assigns `memberIds` to issue `issueId`, in that order (positions 0, 1, …). */
  async addAssignees(orgId: string, issueId: string, memberIds: string[], createdAt: Date, m: Tx): Promise<void> {
    await this.sql.run(
      `INSERT INTO issue_assignees (org_id, issue_id, member_id, position, created_at)
       SELECT $1, $2, a.member_id, a.n - 1, $4 FROM unnest($3::uuid[]) WITH ORDINALITY AS a(member_id, n)`,
      [orgId, issueId, memberIds, createdAt],
      m,
    );
  }

  /** Assignee links of new issues (position = index in each issue's list), in one statement. */
  async addAssigneesOf(orgId: string, links: Array<{ issueId: string; memberIds: string[] }>, createdAt: Date, m: Tx): Promise<void> {
    const rows = links.flatMap((l) => l.memberIds.map((memberId, position) => ({ issueId: l.issueId, memberId, position })));
    if (!rows.length) return;
    await this.sql.run(
      `INSERT INTO issue_assignees (org_id, issue_id, member_id, position, created_at)
       SELECT $1, a.issue_id, a.member_id, a.position, $5 FROM unnest($2::uuid[], $3::uuid[], $4::int[]) AS a(issue_id, member_id, position)`,
      [orgId, rows.map((r) => r.issueId), rows.map((r) => r.memberId), rows.map((r) => r.position), createdAt],
      m,
    );
  }

  /** Label links of new issues, in one statement. */
  async addLabelsOf(orgId: string, links: Array<{ issueId: string; labelIds: string[] }>, createdAt: Date, m: Tx): Promise<void> {
    const rows = links.flatMap((l) => l.labelIds.map((labelId) => ({ issueId: l.issueId, labelId })));
    if (!rows.length) return;
    await this.sql.run(
      `INSERT INTO issue_labels (org_id, issue_id, label_id, created_at)
       SELECT $1, l.issue_id, l.label_id, $4 FROM unnest($2::uuid[], $3::uuid[]) AS l(issue_id, label_id)`,
      [orgId, rows.map((r) => r.issueId), rows.map((r) => r.labelId), createdAt],
      m,
    );
  }

  /** Links `labelIds` to issue `issueId`. */
  async addLabels(orgId: string, issueId: string, labelIds: string[], createdAt: Date, m: Tx): Promise<void> {
    await this.sql.run(
      `INSERT INTO issue_labels (org_id, issue_id, label_id, created_at)
       SELECT $1, $2, l.label_id, $4 FROM unnest($3::uuid[]) AS l(label_id)`,
      [orgId, issueId, labelIds, createdAt],
      m,
    );
  }

  /** Links label `labelId` to issue `issueId`; false when it already was. */
  async linkLabel(orgId: string, issueId: string, labelId: string, m: Tx): Promise<boolean> {
    const rows = await this.sql.rows(
      `INSERT INTO issue_labels (org_id, issue_id, label_id) VALUES ($1, $2, $3)
       ON CONFLICT (org_id, issue_id, label_id) DO NOTHING RETURNING label_id`,
      [orgId, issueId, labelId],
      m,
    );
    return rows.length > 0;
  }

  /** Unlinks label `labelId` from issue `issueId`; answers the label's name, or undefined when it was not linked. */
  async unlinkLabel(orgId: string, issueId: string, labelId: string, m: Tx): Promise<string | undefined> {
    const row = await this.sql.row<{ name: string }>(
      `DELETE FROM issue_labels il USING labels l
          WHERE il.org_id = $1 AND il.issue_id = $2 AND il.label_id = $3 AND l.org_id = il.org_id AND l.id = il.label_id
          RETURNING l.name`,
      [orgId, issueId, labelId],
      m,
    );
    return row?.name;
  }

  /** Labels of one issue in the order they were added. */
  labelsOf(orgId: string, issueId: string, m?: Tx): Promise<IssueLabelRow[]> {
    return this.sql.rows<IssueLabelRow>(
      `SELECT l.id, l.name, l.color, l.description FROM issue_labels il
       JOIN labels l ON l.org_id = il.org_id AND l.id = il.label_id
      WHERE il.org_id = $1 AND il.issue_id = $2 ORDER BY il.created_at, l.id`,
      [orgId, issueId],
      m,
    );
  }

  /** Key and slug of projects (look-up of the projects module's data, for issue responses). */
  projectKeys(orgId: string, projectIds: string[], m?: Tx): Promise<Array<{ id: string; key: string; slug: string }>> {
    return this.sql.rows<{ id: string; key: string; slug: string }>(
      'SELECT id, key, slug FROM projects WHERE org_id = $1 AND id = ANY($2::uuid[])',
      [orgId, projectIds],
      m,
    );
  }

  /** Assignee links of issues, primary first per issue. */
  assigneeLinks(orgId: string, issueIds: string[], m?: Tx): Promise<Array<{ issue_id: string; member_id: string }>> {
    return this.sql.rows<{ issue_id: string; member_id: string }>(
      'SELECT issue_id, member_id FROM issue_assignees WHERE org_id = $1 AND issue_id = ANY($2::uuid[]) ORDER BY position, created_at, member_id',
      [orgId, issueIds],
      m,
    );
  }

  /** Label links of issues, in the order they were added. */
  labelLinks(orgId: string, issueIds: string[], m?: Tx): Promise<Array<{ issue_id: string; label_id: string }>> {
    return this.sql.rows<{ issue_id: string; label_id: string }>(
      'SELECT issue_id, label_id FROM issue_labels WHERE org_id = $1 AND issue_id = ANY($2::uuid[]) ORDER BY created_at, label_id',
      [orgId, issueIds],
      m,
    );
  }

  /** The issue row and everything its detail shows, in one statement (undefined: no such issue). */
  detailRow(orgId: string, issueId: string, m?: Tx): Promise<(IssueRow & DetailExtras) | undefined> {
    return this.sql.row<IssueRow & DetailExtras>(DETAIL_SQL, [orgId, issueId], m);
  }

  /**
   * The artifact manifest of an issue (`include=artifact_manifest`): every artifact linked to it
   * directly, newest change first, without content. A read model over the artifacts tables
   * (artifacts imports issues, so it cannot be asked). Anyone who reads the issue reads them.
   */
  artifactManifest(orgId: string, issueId: string, m?: Tx): Promise<ArtifactManifestRow[]> {
    return this.sql.rows<ArtifactManifestRow>(
      `SELECT a.id, a.type, a.title, a.current_revision_id, a.current_revision_number AS revision_number, a.created_at, a.updated_at
         FROM artifact_links l JOIN artifacts a ON a.org_id = l.org_id AND a.id = l.artifact_id
        WHERE l.org_id = $1 AND l.issue_id = $2
        ORDER BY a.updated_at DESC, a.id DESC LIMIT 1000`,
      [orgId, issueId],
      m,
    );
  }

  /** The issue of UUID `id`, with its project key (0 or 1 rows). */
  byId(orgId: string, id: string, m?: Tx): Promise<IssueRefRow[]> {
    return this.sql.rows<IssueRefRow>(BY_ID_SQL, [orgId, id], m);
  }

  /** Issues numbered `n` in any project or projectless (bounded against abuse). */
  byNumber(orgId: string, n: number, m?: Tx): Promise<IssueRefRow[]> {
    return this.sql.rows<IssueRefRow>(BY_NUMBER_SQL, [orgId, n], m);
  }

  /** The project of key `key` (one row) with its issue numbered `n`, if any (issue columns null otherwise). */
  inProjectByKey(orgId: string, key: string, n: number, m?: Tx): Promise<Array<Omit<IssueRefRow, 'id'> & { pid: string; id: string | null }>> {
    return this.sql.rows<Omit<IssueRefRow, 'id'> & { pid: string; id: string | null }>(
      `SELECT p.id AS pid, i.id, i.project_id, i.number, i.title, i.status, i.archived_at, p.key
         FROM projects p LEFT JOIN issues i ON i.org_id = p.org_id AND i.project_id = p.id AND i.number = $3
        WHERE p.org_id = $1 AND p.key = $2`,
      [orgId, key, n],
      m,
    );
  }
}
