import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { Sql } from '../../../../database/sql.service';
import { DataVersions } from '../../../../common/cache/data-versions.service';
import { VersionedCache } from '../../../../common/cache/versioned-cache';
import type { CompactIssueResponse, IssueRecordResponse } from '../../issue-list.response';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import type { Actor } from '../../../../common/auth/principal';
import { Errors } from '../../../../common/errors/domain-error';
import { listResponse } from '../../../../common/http/list';
import { BUILTIN_STATUSES } from '../../../issues/entities/issue.entity';
import { DependencyRules } from '../../../dependencies/dependency-rules.service';
import { InitiativeScope } from '../../../initiatives/initiative-scope.service';
import type { CustomViewFilters, CustomViewSort } from '../../../projects/custom-view.rules';
import { COMPACT_COLUMNS, FULL_COLUMNS, PROJECT_JOIN, toCompactIssue, toIssueRecord } from '../../issue-record';
import { type AssigneeFilter, type IssueListParams, likePattern, type OrderField } from '../../list-params';
import { ListIssuesQuery } from './list-issues.query';

/** SQL ORDER BY of each whitelisted field (`%d` = direction); ties broken by id. */
const ORDER_SQL: Record<OrderField, (d: string) => string> = {
  created_at: (d) => `i.created_at ${d}, i.id ${d}`,
  updated_at: (d) => `i.updated_at ${d}, i.id ${d}`,
  priority: (d) => `i.priority ${d}, i.created_at DESC, i.id DESC`,
  due_date: (d) => `i.due_date ${d} NULLS LAST, i.id ${d}`,
  title: (d) => `lower(i.title) ${d}, i.id ${d}`,
  // workflow order: backlog, todo, in_progress, custom statuses (by key), done, cancelled
  status: (d) =>
    `CASE i.status WHEN 'backlog' THEN 0 WHEN 'todo' THEN 1 WHEN 'in_progress' THEN 2 WHEN 'done' THEN 4 WHEN 'cancelled' THEN 5 ELSE 3 END ${d}, i.status ${d}, i.id ${d}`,
};

/** Kept list pages per API process: at most this many... */
const LIST_CACHE_ENTRIES = 2000;
/** ...and at most this many characters of titles and descriptions (plus a fixed amount per item) in all. */
const LIST_CACHE_WEIGHT = 16 * 1024 * 1024;

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
interface Effective extends IssueListParams {
  anyAssignees?: string[];
}

/**
 * GET /issues: only issues the caller can read (readable projects; projectless issues for
 * non-guests), every filter a bound parameter, one statement for the page (assignee and label ids
 * aggregated for the page rows only) and a count run concurrently.
 */
@QueryHandler(ListIssuesQuery)
export class ListIssuesHandler implements IQueryHandler<ListIssuesQuery> {
  /**
   * Pages computed by this process, trusted only at the organization's `issues` data version they
   * were read at (bumped at the commit of every change to what a list reads: migration
   * 1765000000000), keyed by caller, readable projects and every effective parameter.
   */
  private readonly pages = new VersionedCache<ListPage>({
    maxEntries: LIST_CACHE_ENTRIES,
    maxWeight: LIST_CACHE_WEIGHT,
    weigh: (p) => p.weight,
  });

  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
    private readonly dependencies: DependencyRules,
    private readonly sql: Sql,
    private readonly initiatives: InitiativeScope,
    private readonly versions: DataVersions,
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

    // Version first, then the page: a kept page is never older than the version it is kept under.
    const version = await this.versions.current(actor.orgId, 'issues');
    const compute = () => this.page(actor, f, readable);
    const page =
      version === null
        ? await compute()
        : await this.pages.through(JSON.stringify([actor.orgId, actor.memberId, readable === 'all' ? 'all' : [...readable].sort(), f]), version, compute);
    return page.body;
  }

  /** One page and its exact total, straight from the database. */
  private async page(actor: Actor, f: Effective, readable: 'all' | string[]): Promise<ListPage> {
    const args: unknown[] = [actor.orgId];
    const bind = (v: unknown) => {
      args.push(v);
      return `$${args.length}`;
    };
    const where: string[] = ['i.org_id = $1'];
    // The same conditions on the maintained per-(project, status, priority, archived) counts:
    // while every filter has one, the exact total is a sum over a few dozen rows of issue_counts
    // instead of a count over up to every issue of the organization.
    const counted: string[] = ['c.org_id = $1'];
    if (f.projectId) {
      const p = bind(f.projectId);
      where.push(`i.project_id = ${p}`);
      counted.push(`c.project_id = ${p}`);
    }
    if (f.open === true) {
      where.push(`i.archived_at IS NULL AND i.status NOT IN ('done', 'cancelled')`);
      counted.push(`NOT c.archived AND c.status NOT IN ('done', 'cancelled')`);
    } else if (f.includeArchived !== true) {
      where.push('i.archived_at IS NULL');
      counted.push('NOT c.archived');
    }
    // Up to here every condition suits one generic plan for all values (organization, one
    // project, archived): such lists run as named prepared statements. Conditions below have
    // values of very different selectivity (a rare status, a guest's few projects, a text search):
    // those statements are planned for their actual values on every request instead.
    const generic = where.length;
    if (readable !== 'all') {
      const p = bind(readable);
      where.push(`i.project_id = ANY(${p}::uuid[])`);
      counted.push(`c.project_id = ANY(${p}::uuid[])`);
    }
    if (f.status) {
      const p = bind(f.status);
      where.push(`i.status = ANY(${p}::text[])`);
      counted.push(`c.status = ANY(${p}::text[])`);
    }
    if (f.priority) {
      const p = bind(f.priority);
      where.push(`i.priority = ANY(${p}::int[])`);
      counted.push(`c.priority = ANY(${p}::int[])`);
    }
    const countedConditions = where.length;
    if (f.initiativeId) {
      // Linked directly, or through a milestone linked to the initiative (not answerable from counts).
      const ini = bind(f.initiativeId);
      where.push(`(EXISTS (SELECT 1 FROM initiative_issues ii WHERE ii.org_id = i.org_id AND ii.initiative_id = ${ini} AND ii.issue_id = i.id)
        OR EXISTS (SELECT 1 FROM initiative_milestones im WHERE im.org_id = i.org_id AND im.initiative_id = ${ini} AND im.milestone_id = i.milestone_id))`);
    }
    for (const a of [f.assigneeId, f.assignee]) if (a) where.push(this.assigneeSql(actor, a, bind));
    if (f.scope === 'mine') where.push(this.assigneeSql(actor, { kind: 'me' }, bind));
    if (f.scope === 'blocked') where.push(this.dependencies.blockedIssuesSql('i'));
    if (f.anyAssignees?.length) {
      const p = bind(f.anyAssignees);
      where.push(
        `(i.assignee_id = ANY(${p}::uuid[]) OR i.id IN (SELECT a.issue_id FROM issue_assignees a WHERE a.org_id = $1 AND a.member_id = ANY(${p}::uuid[])))`,
      );
    }
    if (f.teamId) where.push(`i.team_id = ${bind(f.teamId)}`);
    if (f.milestoneId) where.push(`i.milestone_id = ${bind(f.milestoneId)}`);
    if (f.parentId) where.push(`i.parent_id = ${bind(f.parentId)}`);
    if (f.labelIds) where.push(`EXISTS (SELECT 1 FROM issue_labels l WHERE l.org_id = i.org_id AND l.issue_id = i.id AND l.label_id = ANY(${bind(f.labelIds)}::uuid[]))`);
    if (f.q) {
      const pat = bind(likePattern(f.q));
      if (f.compact) {
        const num = /^(?:#|[A-Za-z][A-Za-z0-9]*-)?(\d{1,9})$/.exec(f.q);
        where.push(num ? `(i.title ILIKE ${pat} ESCAPE '\\' OR i.number = ${bind(Number(num[1]))})` : `i.title ILIKE ${pat} ESCAPE '\\'`);
      } else {
        where.push(`(i.title ILIKE ${pat} ESCAPE '\\' OR i.description ILIKE ${pat} ESCAPE '\\')`);
      }
    }

    const countable = where.length === countedConditions;
    const cond = where.join(' AND ');
    const order = ORDER_SQL[f.orderBy ?? 'created_at']((f.orderDir ?? 'desc').toUpperCase());
    const countArgs = [...args];
    const limit = bind(f.page.limit);
    const offset = bind(f.page.offset);
    // The total from issue_counts when every filter is one of its keys: a sum over a few dozen
    // rows, selected with the page as an uncorrelated sub-select (evaluated once; one round trip).
    // Only an empty page needs it on its own. Otherwise the rows are counted, concurrently.
    const countedSql = `SELECT coalesce(sum(c.n), 0)::int AS n FROM issue_counts c WHERE ${counted.join(' AND ')}`;
    const totalColumn = countable ? `, (${countedSql}) AS list_total` : '';
    const pageSql = f.compact
      ? `SELECT ${COMPACT_COLUMNS}${totalColumn} FROM issues i WHERE ${cond} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`
      : `SELECT ${FULL_COLUMNS}${totalColumn} FROM (SELECT i.* FROM issues i WHERE ${cond} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}) i ${PROJECT_JOIN} ORDER BY ${order}`;
    // Named prepared statements when generic (the text is assembled from a fixed set of fragments,
    // every value is a parameter): parsed and planned once per connection.
    const prepared = where.length === generic;
    const pageRows = (): Promise<Array<Record<string, any>>> => (prepared ? this.sql.prepared(pageSql, args) : this.sql.planned(pageSql, args));
    let rows: Array<Record<string, any>>;
    let total: number;
    if (countable) {
      rows = await pageRows();
      // the counts table is small: one generic plan fits all values
      total = rows.length ? rows[0].list_total : await this.count(countedSql, countArgs, true);
    } else {
      [rows, total] = await Promise.all([pageRows(), this.count(`SELECT count(*)::int AS n FROM issues i WHERE ${cond}`, countArgs, prepared)]);
    }
    const items = f.compact ? rows.map(toCompactIssue) : rows.map(toIssueRecord);
    return { body: listResponse('issues', items, total, f.page), weight: itemsWeight(items) };
  }

  private async count(sql: string, args: unknown[], prepared: boolean): Promise<number> {
    const r: Array<{ n: number }> = prepared ? await this.sql.prepared<{ n: number }>(sql, args) : await this.sql.planned<{ n: number }>(sql, args);
    return r[0]?.n ?? 0;
  }

  private assigneeSql(actor: Actor, a: AssigneeFilter, bind: (v: unknown) => string): string {
    if (a.kind === 'unassigned') {
      return '(i.assignee_id IS NULL AND NOT EXISTS (SELECT 1 FROM issue_assignees a WHERE a.org_id = i.org_id AND a.issue_id = i.id))';
    }
    // primary assignee or any assignee link: the links are read once into a hashed subplan (a
    // correlated OR EXISTS would run a subquery per row of the organization)
    const p = bind(a.kind === 'me' ? actor.memberId : a.id);
    return `(i.assignee_id = ${p} OR i.id IN (SELECT a.issue_id FROM issue_assignees a WHERE a.org_id = $1 AND a.member_id = ${p}))`;
  }

  /**
   * Custom statuses must be a column key of a project the caller can read (typos are a 400; the
   * answer never tells whether an unreadable project has such a column).
   */
  private async assertKnownStatuses(actor: Actor, statuses: string[]): Promise<void> {
    const custom = statuses.filter((s) => !(BUILTIN_STATUSES as readonly string[]).includes(s));
    if (!custom.length) return;
    const readable = await this.access.readableProjects(actor);
    const rows: Array<{ key: string }> = await this.db.query(
      `SELECT DISTINCT key FROM board_columns WHERE org_id = $1 AND key = ANY($2::text[])${readable === 'all' ? '' : ' AND project_id = ANY($3::uuid[])'}`,
      readable === 'all' ? [actor.orgId, custom] : [actor.orgId, custom, readable],
    );
    const known = new Set(rows.map((r) => r.key));
    const unknown = custom.filter((s) => !known.has(s));
    if (unknown.length) throw Errors.validation(`Unknown status: ${unknown.join(', ')} (use backlog, todo, in_progress, done, cancelled or a board column key)`);
  }

  /** Applies a readable custom view: its project, filters and sort, under the request's own parameters. */
  private async withView(actor: Actor, params: IssueListParams): Promise<Effective> {
    const rows: Array<{ project_id: string; filters: CustomViewFilters | null; sort: CustomViewSort | null }> = await this.db.query(
      'SELECT project_id, filters, sort FROM custom_views WHERE org_id = $1 AND id = $2',
      [actor.orgId, params.viewId],
    );
    const view = rows[0];
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
