import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import { DependencyRules } from '../dependencies/dependency-rules.service';
import { IssueEntity } from './entities/issue.entity';
import { IssueRecurrenceAdapter } from './issue-recurrence.adapter';
import { type IssueExtras, toIssueResponse } from './issues.mapper';
import type { IssueDetailResponse, IssueMemberResponse, IssueResponse } from './issues.response';

/** Loads issues and builds their responses (full record and detail), batched per call. */
@Injectable()
export class IssueReader {
  constructor(
    private readonly recurrence: IssueRecurrenceAdapter,
    private readonly dependencies: DependencyRules,
  ) {}

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

  /** The detail: full record plus creator, assignee(s), labels, milestone, sub-tasks and isBlocked. */
  async detail(m: EntityManager, orgId: string, issue: IssueEntity, includeArtifactManifest: boolean): Promise<IssueDetailResponse> {
    const base = await this.toResponse(m, orgId, issue);
    const memberIds = [...new Set([...(issue.createdByMemberId ? [issue.createdByMemberId] : []), ...base.assignee_ids])];
    const [members, labels, milestone, subs, blocked] = await Promise.all([
      memberIds.length
        ? (m.query('SELECT id, display_name, type, avatar_url FROM members WHERE org_id = $1 AND id = ANY($2::uuid[])', [orgId, memberIds]) as Promise<
            IssueMemberResponse[]
          >)
        : Promise.resolve([] as IssueMemberResponse[]),
      base.label_ids.length
        ? (m.query('SELECT id, name, color FROM labels WHERE org_id = $1 AND id = ANY($2::uuid[]) ORDER BY lower(name), id', [orgId, base.label_ids]) as Promise<
            Array<{ id: string; name: string; color: string | null }>
          >)
        : Promise.resolve([]),
      issue.milestoneId
        ? (m.query('SELECT id, name FROM milestones WHERE org_id = $1 AND id = $2', [orgId, issue.milestoneId]) as Promise<Array<{ id: string; name: string }>>)
        : Promise.resolve([]),
      m.query(
        `SELECT i.id, i.number, i.title, i.status, p.key FROM issues i LEFT JOIN projects p ON p.org_id = i.org_id AND p.id = i.project_id
          WHERE i.org_id = $1 AND i.parent_id = $2 ORDER BY i.created_at, i.id`,
        [orgId, issue.id],
      ) as Promise<Array<{ id: string; number: number; title: string; status: string; key: string | null }>>,
      m.query(`SELECT ${this.dependencies.blockedIssuesSql('i')} AS blocked FROM issues i WHERE i.org_id = $1 AND i.id = $2`, [orgId, issue.id]) as Promise<
        Array<{ blocked: boolean }>
      >,
    ]);
    const member = (id: string | null): IssueMemberResponse | null => {
      const r = id ? members.find((x) => x.id === id) : undefined;
      return r ? { id: r.id, display_name: r.display_name, type: r.type, avatar_url: r.avatar_url ?? null } : null;
    };
    return {
      ...base,
      creator: member(issue.createdByMemberId),
      assignee: member(issue.assigneeId),
      assignees: base.assignee_ids.map((id) => member(id)).filter((x): x is IssueMemberResponse => !!x),
      labels: labels.map((l) => ({ id: l.id, name: l.name, color: l.color })),
      issue_labels: labels.map((l) => ({ id: l.id, name: l.name, color: l.color })),
      milestone: milestone[0] ? { id: milestone[0].id, name: milestone[0].name } : null,
      sub_tasks: subs.map((s) => ({ id: s.id, number: s.number, identifier: s.key ? `${s.key}-${s.number}` : null, title: s.title, status: s.status })),
      isBlocked: !!blocked[0]?.blocked,
      ...(includeArtifactManifest ? { artifact_manifest: [] } : {}),
    };
  }
}
