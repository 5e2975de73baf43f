import { Injectable } from '@nestjs/common';
import type { IssueFacts } from '../../common/events/domain-events';
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

  /** Issue `id`, locked until the transaction ends (FOR UPDATE), or null. */
  async lockById(orgId: string, id: string, m: Tx): Promise<IssueEntity | null> {
    const row = await this.sql.row<IssueRow>(`SELECT ${ISSUE_ROW_COLUMNS} FROM issues i WHERE i.org_id = $1 AND i.id = $2 FOR UPDATE`, [orgId, id], m);
    return row ? issueFromRow(row) : null;
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

  /** Deletes issue `id` (its links, comments, dependencies and attachment rows go by cascade). */
  async delete(orgId: string, id: string, m: Tx): Promise<void> {
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
      assignee_ids: string[];
    }>(
      `SELECT i.id, i.status, i.priority, i.project_id, i.title, i.number, i.created_by_member_id, i.archived_at IS NOT NULL AS archived,
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
  byId(orgId: string, id: string): Promise<IssueRefRow[]> {
    return this.sql.rows<IssueRefRow>(BY_ID_SQL, [orgId, id]);
  }

  /** Issues numbered `n` in any project or projectless (bounded against abuse). */
  byNumber(orgId: string, n: number): Promise<IssueRefRow[]> {
    return this.sql.rows<IssueRefRow>(BY_NUMBER_SQL, [orgId, n]);
  }

  /** The project of key `key` (one row) with its issue numbered `n`, if any (issue columns null otherwise). */
  inProjectByKey(orgId: string, key: string, n: number): Promise<Array<Omit<IssueRefRow, 'id'> & { pid: string; id: string | null }>> {
    return this.sql.rows<Omit<IssueRefRow, 'id'> & { pid: string; id: string | null }>(
      `SELECT p.id AS pid, i.id, i.project_id, i.number, i.title, i.status, i.archived_at, p.key
         FROM projects p LEFT JOIN issues i ON i.org_id = p.org_id AND i.project_id = p.id AND i.number = $3
        WHERE p.org_id = $1 AND p.key = $2`,
      [orgId, key, n],
    );
  }
}
