import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ISSUE_LIST, ReadModels } from '../../../../common/cache/read-models';
import type { CompactIssueResponse, IssueRecordResponse } from '../../issue-list.response';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import type { Actor } from '../../../../common/auth/principal';
import { Errors } from '../../../../common/errors/domain-error';
import { listResponse } from '../../../../common/http/list';
import { BUILTIN_STATUSES } from '../../../issues/issues.public';
import { InitiativeScope } from '../../../initiatives/initiative-scope.service';
import { BoardRepository } from '../../../projects/board.repository';
import { CustomViewsRepository } from '../../../projects/custom-views.repository';
import { toCompactIssue, toIssueRecord } from '../../issue-record';
import { type CompactIssueRow, type IssueListFilters, IssueListRepository, type IssueRecordRow } from '../../issue-list.repository';
import type { AssigneeFilter, IssueListParams } from '../../list-params';
import { ListIssuesQuery } from './list-issues.query';

/**
 * A computed page: the response body itself (legacy or envelope shape, decided by the page
 * request, which is part of the key), so a kept page goes out as the same object and its JSON
 * bytes are made once (serializeOnce). `weight` is fixed when it is made.
 */
interface ListPage {
  body: Record<string, unknown>;
  weight: number;
}

/** Roughly the characters a page holds (its texts dominate). */
function itemsWeight(items: Array<IssueRecordResponse | CompactIssueResponse>): number {
  let w = 64;
  for (const it of items) w += 400 + (it.title?.length ?? 0) + ((it as IssueRecordResponse).description?.length ?? 0);
  return w;
}

/** Request filters after merging a custom view (request parameters win). */
type Effective = IssueListFilters;

/**
 * GET /issues: only issues the caller can read (readable projects; projectless issues for
 * non-guests), every filter a bound parameter, one statement for the page (assignee and label ids
 * aggregated for the page rows only) and a count run concurrently.
 */
@QueryHandler(ListIssuesQuery)
export class ListIssuesHandler implements IQueryHandler<ListIssuesQuery> {
  constructor(
    private readonly board: BoardRepository,
    private readonly views: CustomViewsRepository,
    private readonly access: AccessPolicyService,
    private readonly list: IssueListRepository,
    private readonly initiatives: InitiativeScope,
    private readonly readModels: ReadModels,
  ) {}

  async execute({ actor, params }: ListIssuesQuery): Promise<Record<string, unknown>> {
    const f: Effective = params.viewId ? await this.withView(actor, params) : { ...params };
    const empty = () => listResponse('issues', [], 0, f.page);

    if (f.projectId) await this.access.assertProjectReadable(actor, f.projectId);
    // An unreadable initiative is 404, as an unreadable projectId is.
    if (f.initiativeId) await this.initiatives.readable(actor, f.initiativeId);
    if (f.status) await this.assertKnownStatuses(actor, f.status);
    const readable = await this.access.readableProjects(actor);
    if (readable !== 'all' && readable.length === 0) return empty();

    // Kept pages (read-models.ts: ISSUE_LIST) are keyed by caller, readable projects and every effective parameter.
    const key = JSON.stringify([actor.memberId, readable === 'all' ? 'all' : [...readable].sort(), f]);
    const page = await this.readModels.serve(ISSUE_LIST, actor.orgId, key, () => this.page(actor, f, readable));
    return page.body;
  }

  /** One page and its exact total, straight from the database. */
  private async page(actor: Actor, f: Effective, readable: 'all' | string[]): Promise<ListPage> {
    const { rows, total } = await this.list.page(actor.orgId, actor.memberId, f, readable);
    const items = f.compact ? (rows as CompactIssueRow[]).map(toCompactIssue) : (rows as IssueRecordRow[]).map(toIssueRecord);
    return { body: listResponse('issues', items, total, f.page), weight: itemsWeight(items) };
  }

  /**
   * Custom statuses must be a column key of a project the caller can read (typos are a 400; the
   * answer never tells whether an unreadable project has such a column).
   */
  private async assertKnownStatuses(actor: Actor, statuses: string[]): Promise<void> {
    const custom = statuses.filter((s) => !(BUILTIN_STATUSES as readonly string[]).includes(s));
    if (!custom.length) return;
    const readable = await this.access.readableProjects(actor);
    const known = await this.board.knownColumnKeys(actor.orgId, custom, readable);
    const unknown = custom.filter((s) => !known.has(s));
    if (unknown.length)
      throw Errors.validation(`Unknown status: ${unknown.join(', ')} (use backlog, todo, in_progress, done, cancelled or a board column key)`);
  }

  /** Applies a readable custom view: its project, filters and sort, under the request's own parameters. */
  private async withView(actor: Actor, params: IssueListParams): Promise<Effective> {
    const view = await this.views.findInOrg(actor.orgId, params.viewId!);
    if (!view || !(await this.access.levelFor(actor, view.project_id))) throw Errors.notFound('Custom view not found');
    const vf = view.filters ?? {};
    const assignee = (v: unknown): AssigneeFilter | undefined =>
      v === 'me' ? { kind: 'me' } : v === 'unassigned' ? { kind: 'unassigned' } : typeof v === 'string' ? { kind: 'member', id: v } : undefined;
    const arr = <T>(v: unknown): T[] | undefined => (Array.isArray(v) && v.length ? (v as T[]) : undefined);
    return {
      ...params,
      projectId: params.projectId ?? view.project_id,
      status: params.status ?? arr<string>(vf.status),
      priority: params.priority ?? arr<number>(vf.priority),
      assignee: params.assignee ?? assignee(vf.assignee),
      anyAssignees: params.assigneeId || params.assignee ? undefined : arr<string>(vf.assigneeIds),
      labelIds: params.labelIds ?? arr<string>(vf.labelIds),
      q: params.q ?? (typeof vf.q === 'string' && vf.q.trim() ? vf.q.trim() : undefined),
      open: params.open ?? (typeof vf.open === 'boolean' ? vf.open : undefined),
      includeArchived: params.includeArchived ?? (typeof vf.includeArchived === 'boolean' ? vf.includeArchived : undefined),
      milestoneId: params.milestoneId ?? vf.milestoneId,
      teamId: params.teamId ?? vf.teamId,
      orderBy: params.orderBy ?? view.sort?.field,
      orderDir: params.orderDir ?? view.sort?.direction,
    };
  }
}
