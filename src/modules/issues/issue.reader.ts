import { Injectable } from '@nestjs/common';
import { independently, type Tx } from '../../database/sql.service';
import type { IssueEntity } from './entities/issue.entity';
import { IssueRecurrenceAdapter } from './issue-recurrence.adapter';
import { type IssueExtras, toIssueResponse } from './issues.mapper';
import { type ArtifactManifestRow, type DetailExtras, issueFromRow, IssuesRepository } from './issues.repository';
import type { ArtifactManifestEntryResponse, IssueDetailResponse, IssueMemberResponse, IssueResponse } from './issues.response';

/** Builds issue responses (full record and detail) from IssuesRepository reads, batched per call. */
@Injectable()
export class IssueReader {
  constructor(
    private readonly recurrence: IssueRecurrenceAdapter,
    private readonly issues: IssuesRepository,
  ) {}

  /** Project key and slug, assignee and label ids of each issue. */
  private async extras(orgId: string, issues: IssueEntity[], m?: Tx): Promise<Map<string, IssueExtras>> {
    const ids = issues.map((i) => i.id);
    const projectIds = [...new Set(issues.map((i) => i.projectId).filter((p): p is string => !!p))];
    const out = new Map<string, IssueExtras>();
    if (!ids.length) return out;
    const [projects, assignees, labels] = await independently(m, [
      () => (projectIds.length ? this.issues.projectKeys(orgId, projectIds, m) : Promise.resolve([])),
      () => this.issues.assigneeLinks(orgId, ids, m),
      () => this.issues.labelLinks(orgId, ids, m),
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

  /** Full records of the given issues (inside the caller's transaction when `m` is given). */
  async toResponses(orgId: string, issues: IssueEntity[], m?: Tx): Promise<IssueResponse[]> {
    const extras = await this.extras(orgId, issues, m);
    return issues.map((i) => toIssueResponse(i, extras.get(i.id)!, this.recurrence.response(i)));
  }

  /** The full record from what the writer already holds (no statement). */
  fromKnown(issue: IssueEntity, extras: IssueExtras): IssueResponse {
    return toIssueResponse(issue, extras, this.recurrence.response(issue));
  }

  /** The full record of one issue. */
  async toResponse(orgId: string, issue: IssueEntity, m?: Tx): Promise<IssueResponse> {
    return (await this.toResponses(orgId, [issue], m))[0];
  }

  /** Keeps only the sub-tasks whose project (or projectless issue) the caller may read. */
  async readableSubtasks(extras: DetailExtras, canRead: (projectId: string | null) => Promise<boolean>): Promise<DetailExtras> {
    const subs: DetailExtras['subs'] = [];
    for (const x of extras.subs ?? []) if (await canRead(x.project_id ?? null)) subs.push(x);
    return { ...extras, subs };
  }

  /**
   * The issue and its detail extras in one statement (GET /issues/:ref): null when there is no
   * such issue. The entity is built from the same row.
   */
  async loadDetail(orgId: string, issueId: string): Promise<{ issue: IssueEntity; extras: DetailExtras } | null> {
    const row = await this.issues.detailRow(orgId, issueId);
    return row ? { issue: issueFromRow(row), extras: row } : null;
  }

  /** The issue's artifact manifest (`include=artifact_manifest`): metadata of its linked artifacts, no content. */
  async artifactManifest(orgId: string, issueId: string): Promise<ArtifactManifestEntryResponse[]> {
    const iso = (d: Date) => new Date(d).toISOString();
    return (await this.issues.artifactManifest(orgId, issueId)).map((a: ArtifactManifestRow) => ({
      id: a.id,
      artifact_id: a.id,
      type: a.type,
      title: a.title,
      current_revision_id: a.current_revision_id,
      revision_number: a.revision_number,
      created_at: iso(a.created_at),
      updated_at: iso(a.updated_at),
    }));
  }

  detailFrom(issue: IssueEntity, r: DetailExtras, artifactManifest?: ArtifactManifestEntryResponse[]): IssueDetailResponse {
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
      sub_tasks: (r.subs ?? []).map((x) => ({
        id: x.id,
        number: x.number,
        identifier: x.key ? `${x.key}-${x.number}` : null,
        title: x.title,
        status: x.status,
      })),
      isBlocked: !!r.blocked,
      ...(artifactManifest ? { artifact_manifest: artifactManifest } : {}),
    };
  }
}
