import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import { Sql } from '../../database/sql.service';
import { DependencyRules } from '../dependencies/dependency-rules.service';
import { IssueEntity } from './entities/issue.entity';
import { IssueRecurrenceAdapter } from './issue-recurrence.adapter';
import { type IssueExtras, toIssueResponse } from './issues.mapper';
import type { IssueDetailResponse, IssueMemberResponse, IssueResponse } from './issues.response';

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

/** IssueEntity from a row selected with ISSUE_ROW_COLUMNS. */
function issueFromRow(r: Record<string, any>): IssueEntity {
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

/** What the issue detail shows beyond the issue row (IssueReader.detailExtras). */
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

/** Loads issues and builds their responses (full record and detail), batched per call. */
@Injectable()
export class IssueReader {
  constructor(
    private readonly recurrence: IssueRecurrenceAdapter,
    private readonly dependencies: DependencyRules,
    private readonly sql: Sql,
  ) {}

  /** Outside a transaction, a named prepared statement on the pool; inside, the transaction's runner. */
  private read<T>(m: EntityManager, text: string, values: unknown[]): Promise<T[]> {
    return m.queryRunner ? (m.query(text, values) as Promise<T[]>) : this.sql.prepared<T>(text, values);
  }

  findOne(m: EntityManager, orgId: string, id: string, lock = false): Promise<IssueEntity | null> {
    return m.findOne(IssueEntity, { where: { orgId, id }, ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}) });
  }

  findMany(m: EntityManager, orgId: string, ids: string[]): Promise<IssueEntity[]> {
    return ids.length ? m.find(IssueEntity, { where: { orgId, id: In(ids) } }) : Promise.resolve([]);
  }

  async extras(m: EntityManager, orgId: string, issues: IssueEntity[]): Promise<Map<string, IssueExtras>> {
    const ids = issues.map((i) => i.id);
    const projectIds = [...new Set(issues.map((i) => i.projectId).filter((p): p is string => !!p))];
    const out = new Map<string, IssueExtras>();
    if (!ids.length) return out;
    const [projects, assignees, labels] = await Promise.all([
      projectIds.length
        ? (m.query('SELECT id, key, slug FROM projects WHERE org_id = $1 AND id = ANY($2::uuid[])', [orgId, projectIds]) as Promise<Array<{ id: string; key: string; slug: string }>>)
        : Promise.resolve([] as Array<{ id: string; key: string; slug: string }>),
      m.query(
        'SELECT issue_id, member_id FROM issue_assignees WHERE org_id = $1 AND issue_id = ANY($2::uuid[]) ORDER BY position, created_at, member_id',
        [orgId, ids],
      ) as Promise<Array<{ issue_id: string; member_id: string }>>,
      m.query('SELECT issue_id, label_id FROM issue_labels WHERE org_id = $1 AND issue_id = ANY($2::uuid[]) ORDER BY created_at, label_id', [
        orgId,
        ids,
      ]) as Promise<Array<{ issue_id: string; label_id: string }>>,
    ]);
    const byProject = new Map(projects.map((p) => [p.id, p]));
    for (const i of issues) {
      const p = i.projectId ? byProject.get(i.projectId) : undefined;
      out.set(i.id, { projectKey: p?.key ?? null, projectSlug: p?.slug ?? null, assigneeIds: [], labelIds: [] });
    }
    for (const a of assignees) out.get(a.issue_id)?.assigneeIds.push(a.member_id);
    for (const l of labels) out.get(l.issue_id)?.labelIds.push(l.label_id);
    return out;
  }

  async toResponses(m: EntityManager, orgId: string, issues: IssueEntity[]): Promise<IssueResponse[]> {
    const extras = await this.extras(m, orgId, issues);
    return issues.map((i) => toIssueResponse(i, extras.get(i.id)!, this.recurrence.response(i)));
  }

  async toResponse(m: EntityManager, orgId: string, issue: IssueEntity): Promise<IssueResponse> {
    return (await this.toResponses(m, orgId, [issue]))[0];
  }

  /**
   * The detail: full record plus creator, assignee(s), labels, milestone, sub-tasks and isBlocked.
   * The parts beyond the issue row are read in one statement (detailExtras), which does not need
   * the loaded entity: GET /issues/:ref runs it beside the entity load.
   */
  async detail(
    m: EntityManager,
    orgId: string,
    issue: IssueEntity,
    includeArtifactManifest: boolean,
    canRead?: (projectId: string | null) => Promise<boolean>,
  ): Promise<IssueDetailResponse> {
    const extras = await this.detailExtras(m, orgId, issue.id);
    if (!extras) throw new Error(`issue ${issue.id} vanished while its detail was read`);
    return this.detailFrom(issue, canRead ? await this.readableSubtasks(extras, canRead) : extras, includeArtifactManifest);
  }

  /** Keeps only the sub-tasks whose project (or projectless issue) the caller may read. */
  async readableSubtasks(extras: DetailExtras, canRead: (projectId: string | null) => Promise<boolean>): Promise<DetailExtras> {
    const subs: DetailExtras['subs'] = [];
    for (const x of extras.subs ?? []) if (await canRead(x.project_id ?? null)) subs.push(x);
    return { ...extras, subs };
  }

  /** Everything the detail shows beyond the issue row, in one round trip (null: no such issue). */
  async detailExtras(m: EntityManager, orgId: string, issueId: string): Promise<DetailExtras | null> {
    const rows = await this.read<DetailExtras>(
      m,
      `WITH a AS (SELECT member_id, position, created_at FROM issue_assignees WHERE org_id = $1 AND issue_id = $2),
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
              ${this.dependencies.blockedIssuesSql('i')} AS blocked
         FROM issues i LEFT JOIN projects p ON p.org_id = i.org_id AND p.id = i.project_id
        WHERE i.org_id = $1 AND i.id = $2`,
      [orgId, issueId],
    );
    return rows[0] ?? null;
  }

  /**
   * The issue and its detail extras in one statement (GET /issues/:ref): null when there is no
   * such issue. The entity is built from the same row (issueFromRow).
   */
  async loadDetail(m: EntityManager, orgId: string, issueId: string): Promise<{ issue: IssueEntity; extras: DetailExtras } | null> {
    const extras = await this.detailExtras(m, orgId, issueId);
    return extras ? { issue: issueFromRow(extras as unknown as Record<string, any>), extras } : null;
  }

  detailFrom(issue: IssueEntity, r: DetailExtras, includeArtifactManifest: boolean): IssueDetailResponse {
    const extras: IssueExtras = {
      projectKey: issue.projectId ? (r.project_key ?? null) : null,
      projectSlug: issue.projectId ? (r.project_slug ?? null) : null,
      assigneeIds: r.assignee_ids ?? [],
      labelIds: r.label_ids ?? [],
    };
    const base = toIssueResponse(issue, extras, this.recurrence.response(issue));
    const members = r.members ?? [];
    const labels = r.labels ?? [];
    const member = (id: string | null): IssueMemberResponse | null => {
      const x = id ? members.find((y) => y.id === id) : undefined;
      return x ? { id: x.id, display_name: x.display_name, type: x.type, avatar_url: x.avatar_url ?? null } : null;
    };
    return {
      ...base,
      creator: member(issue.createdByMemberId),
      assignee: member(issue.assigneeId),
      assignees: base.assignee_ids.map((id) => member(id)).filter((x): x is IssueMemberResponse => !!x),
      labels: labels.map((l) => ({ id: l.id, name: l.name, color: l.color })),
      issue_labels: labels.map((l) => ({ id: l.id, name: l.name, color: l.color })),
      milestone: r.milestone ? { id: r.milestone.id, name: r.milestone.name } : null,
      sub_tasks: (r.subs ?? []).map((x) => ({ id: x.id, number: x.number, identifier: x.key ? `${x.key}-${x.number}` : null, title: x.title, status: x.status })),
      isBlocked: !!r.blocked,
      ...(includeArtifactManifest ? { artifact_manifest: [] } : {}),
    };
  }
}
