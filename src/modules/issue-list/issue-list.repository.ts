import { Injectable } from '@nestjs/common';
import { type Tx, Sql } from '../../database/sql.service';
import type { PageRequest } from '../../common/http/list';
import { commentMatchesSql } from '../comments/comments.repository';
import { blockedIssuesSql } from '../dependencies/dependencies.repository';
import type { RecurrenceMode, RecurrenceType, Weekday } from '../issues/issues.public';
import { type AssigneeFilter, issueNumberInQuery, type IssueListParams, likePattern, type OrderField } from './list-params';
import type { IssueCoreRow } from '../issues/issues.repository';

/**
 * The full issue record (list items, subtask responses): one statement for any number of issues,
 * assignee and label ids aggregated per row (no N+1). The statement supplies the source of `i`
 * (the issues table or a page sub-select) and the join to projects.
 */
const FULL_COLUMNS = `
  i.id, i.number, i.title, i.description, i.status, i.priority, i.project_id,
  p.key AS project_key, p.slug AS project_slug,
  i.assignee_id, i.team_id, i.milestone_id, i.parent_id,
  to_char(i.start_date, 'YYYY-MM-DD') AS start_date, to_char(i.due_date, 'YYYY-MM-DD') AS due_date,
  i.recurrence_type, i.recurrence_interval, i.recurrence_days::text[] AS recurrence_days, i.recurrence_mode,
  i.recurrence_time, i.recurrence_timezone,
  i.created_by_member_id, i.archived_at, i.completed_at, i.created_at, i.updated_at,
  ARRAY(SELECT a.member_id::text FROM issue_assignees a WHERE a.org_id = i.org_id AND a.issue_id = i.id
        ORDER BY a.position, a.created_at, a.member_id) AS assignee_ids,
  ARRAY(SELECT l.label_id::text FROM issue_labels l WHERE l.org_id = i.org_id AND l.issue_id = i.id
        ORDER BY l.created_at, l.label_id) AS label_ids`;

/** The compact projection of `view=board|list` (no project join, no labels). */
const COMPACT_COLUMNS = `
  i.id, i.number, i.title, i.status, i.priority, i.project_id, i.assignee_id,
  to_char(i.due_date, 'YYYY-MM-DD') AS due_date, i.milestone_id, i.updated_at,
  ARRAY(SELECT a.member_id::text FROM issue_assignees a WHERE a.org_id = i.org_id AND a.issue_id = i.id
        ORDER BY a.position, a.created_at, a.member_id) AS assignee_ids`;

const PROJECT_JOIN = 'LEFT JOIN projects p ON p.org_id = i.org_id AND p.id = i.project_id';

/** A row of FULL_COLUMNS (the full issue record). */
export interface IssueRecordRow {
  id: string;
  number: number;
  title: string;
  description: string | null;
  status: string;
  priority: number;
  project_id: string | null;
  project_key: string | null;
  project_slug: string | null;
  assignee_id: string | null;
  team_id: string | null;
  milestone_id: string | null;
  parent_id: string | null;
  start_date: string | null;
  due_date: string | null;
  recurrence_type: RecurrenceType | null;
  recurrence_interval: number | null;
  recurrence_days: Weekday[] | null;
  recurrence_mode: RecurrenceMode | null;
  recurrence_time: string | null;
  recurrence_timezone: string | null;
  created_by_member_id: string | null;
  archived_at: Date | null;
  completed_at: Date | null;
  created_at: Date;
  updated_at: Date;
  assignee_ids: string[];
  label_ids: string[];
}

/** A row of COMPACT_COLUMNS (`view=board|list`). */
export interface CompactIssueRow extends IssueCoreRow {
  assignee_id: string | null;
  due_date: string | null;
  milestone_id: string | null;
  updated_at: Date;
  assignee_ids: string[];
}

/** A page row, with the page's total when it was answerable from issue_counts. */
type ListRow = (IssueRecordRow | CompactIssueRow) & { list_total?: number };

/** Request filters after merging a custom view (request parameters win). */
export interface IssueListFilters extends IssueListParams {
  anyAssignees?: string[];
}

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

/** What one page of GET /issues/search needs (validated by its handler). */
export interface IssueSearchFilters {
  /** The search text (trimmed, at least one letter or digit). */
  q: string;
  /** ILIKE pattern of `q` for infix title matches (trigram index), or null (fewer than three letters or digits in a row). */
  titlePattern: string | null;
  /** The readable issues `q` names as a reference (UUID, number, KEY-n): ranked first. */
  exactIds: string[];
  includeArchived: boolean;
  page: PageRequest;
}

/** A search page row: the full record, and the page's total on every row (also on the one row of an empty page, without an issue). */
type SearchRow = IssueRecordRow & { search_total: number };

/**
 * The text-search query of search text `$2`: every word of it (the parser of configuration
 * 'simple', as the indexed text), all required, each of two characters or more matched as a
 * prefix (`auth` finds `authentication`). An immutable expression of the parameter: PostgreSQL
 * folds it into a constant when it plans the statement for its values (Sql.planned).
 */
const SEARCH_TSQUERY = `(regexp_replace(plainto_tsquery('simple'::regconfig, $2)::text, '(''[^'']{2,}'')( |$)', '\\1:*\\2', 'g')::tsquery)`;

/**
 * Matches of each kind (issue text, comments, title substrings) a search reads at most: every match
 * is ranked, so the cost grows with their number; past this a search ranks the first ones found
 * (in no particular order) and its total counts those. A word in most issues reads 1,000 of them.
 */
export const SEARCH_MATCH_CAP = 1000;

/**
 * The search statement (GET /issues/search) and its values: issues of organization `orgId` the
 * caller may read (`readable` as in `page`), archived ones only with `includeArchived`, matching
 * `q` in their title or description (issues_search_idx), in a live comment (comments_search_idx),
 * by title infix (issues_title_trgm_idx), or named by `q` as a reference; at most SEARCH_MATCH_CAP
 * of each kind. Ranked by tier (the reference 4, a title match 3, description 2, comment only 1),
 * then ts_rank, then newest update and id; the total counts the matches read. Exported for the
 * test that holds it to its indexes.
 */
export function issueSearchStatement(orgId: string, f: IssueSearchFilters, readable: 'all' | string[]): { text: string; values: unknown[] } {
  const values: unknown[] = [orgId, f.q];
  const bind = (v: unknown) => {
    values.push(v);
    return `$${values.length}`;
  };
  const cond = ['i.org_id = $1'];
  if (!f.includeArchived) cond.push('i.archived_at IS NULL');
  if (readable !== 'all') cond.push(`i.project_id = ANY(${bind(readable)}::uuid[])`);
  const where = cond.join(' AND ');
  const t = SEARCH_TSQUERY;
  const branches = [
    `SELECT i.id, i.updated_at, CASE WHEN ts_filter(i.search_vector, '{a}') @@ ${t} THEN 3 ELSE 2 END AS tier, ts_rank(i.search_vector, ${t}) AS rank
       FROM issues i WHERE ${where} AND i.search_vector @@ ${t}`,
    `SELECT i.id, i.updated_at, 1, cm.rank FROM (${commentMatchesSql(t)}) cm JOIN issues i ON i.org_id = $1 AND i.id = cm.issue_id WHERE ${where}`,
  ];
  if (f.titlePattern) branches.push(`SELECT i.id, i.updated_at, 3, 0::real FROM issues i WHERE ${where} AND i.title ILIKE ${bind(f.titlePattern)} ESCAPE '\\'`);
  if (f.exactIds.length) branches.push(`SELECT i.id, i.updated_at, 4, 0::real FROM issues i WHERE ${where} AND i.id = ANY(${bind(f.exactIds)}::uuid[])`);
  const order = 'h.tier DESC, h.rank DESC, h.updated_at DESC, h.id DESC';
  const text = `
    WITH hits AS (
      SELECT u.id, max(u.updated_at) AS updated_at, max(u.tier) AS tier, max(u.rank) AS rank
        FROM (${branches.map((b) => `(${b} LIMIT ${SEARCH_MATCH_CAP})`).join('\n        UNION ALL ')}) u
       GROUP BY u.id
    )
    SELECT ${FULL_COLUMNS}, n.total AS search_total
      FROM (SELECT count(*)::int AS total FROM hits) n
      LEFT JOIN LATERAL (SELECT h.* FROM hits h ORDER BY ${order} LIMIT ${bind(f.page.limit)} OFFSET ${bind(f.page.offset)}) h ON true
      LEFT JOIN issues i ON i.org_id = $1 AND i.id = h.id
      ${PROJECT_JOIN}
     ORDER BY ${order}`;
  return { text, values };
}

/** Statements of the issue list read model (GET /issues pages, full issue records). */
@Injectable()
export class IssueListRepository {
  constructor(private readonly sql: Sql) {}

  /** Full records of the given issues of one organization (any order; missing ones absent). */
  records(orgId: string, ids: string[], m?: Tx): Promise<IssueRecordRow[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.sql.rows<IssueRecordRow>(
      `SELECT ${FULL_COLUMNS} FROM issues i ${PROJECT_JOIN} WHERE i.org_id = $1 AND i.id = ANY($2::uuid[])`,
      [orgId, ids],
      m,
    );
  }

  /**
   * One page of issues and its exact total: only issues of `readable` projects ('all': every
   * project and projectless issues), every filter a bound parameter. Rows are IssueRecordRow, or
   * CompactIssueRow with `f.compact`.
   */
  async page(
    orgId: string,
    memberId: string,
    f: IssueListFilters,
    readable: 'all' | string[],
  ): Promise<{ rows: Array<IssueRecordRow | CompactIssueRow>; total: number }> {
    const args: unknown[] = [orgId];
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
    for (const a of [f.assigneeId, f.assignee]) if (a) where.push(this.assigneeSql(memberId, a, bind));
    if (f.scope === 'mine') where.push(this.assigneeSql(memberId, { kind: 'me' }, bind));
    if (f.scope === 'blocked') where.push(blockedIssuesSql('i'));
    if (f.anyAssignees?.length) {
      const p = bind(f.anyAssignees);
      where.push(
        `(i.assignee_id = ANY(${p}::uuid[]) OR i.id IN (SELECT a.issue_id FROM issue_assignees a WHERE a.org_id = $1 AND a.member_id = ANY(${p}::uuid[])))`,
      );
    }
    if (f.teamId) where.push(`i.team_id = ${bind(f.teamId)}`);
    if (f.milestoneId) where.push(`i.milestone_id = ${bind(f.milestoneId)}`);
    if (f.parentId) where.push(`i.parent_id = ${bind(f.parentId)}`);
    if (f.labelIds)
      where.push(`EXISTS (SELECT 1 FROM issue_labels l WHERE l.org_id = i.org_id AND l.issue_id = i.id AND l.label_id = ANY(${bind(f.labelIds)}::uuid[]))`);
    if (f.q) {
      const pat = bind(likePattern(f.q));
      if (f.compact) {
        const num = issueNumberInQuery(f.q);
        where.push(num !== undefined ? `(i.title ILIKE ${pat} ESCAPE '\\' OR i.number = ${bind(num)})` : `i.title ILIKE ${pat} ESCAPE '\\'`);
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
    const pageRows = (): Promise<ListRow[]> => (prepared ? this.sql.rows<ListRow>(pageSql, args) : this.sql.planned<ListRow>(pageSql, args));
    let rows: ListRow[];
    let total: number;
    if (countable) {
      rows = await pageRows();
      // the counts table is small: one generic plan fits all values
      total = rows.length ? rows[0].list_total! : await this.count(countedSql, countArgs, true);
    } else {
      [rows, total] = await Promise.all([pageRows(), this.count(`SELECT count(*)::int AS n FROM issues i WHERE ${cond}`, countArgs, prepared)]);
    }
    return { rows, total };
  }

  /**
   * One page of the issue search and its exact total (issueSearchStatement), planned for its
   * values on every request: the selectivity of a search text varies without bound.
   */
  async search(orgId: string, f: IssueSearchFilters, readable: 'all' | string[]): Promise<{ rows: IssueRecordRow[]; total: number }> {
    const { text, values } = issueSearchStatement(orgId, f, readable);
    const rows = await this.sql.planned<SearchRow>(text, values);
    return { rows: rows.filter((r) => r.id !== null), total: rows[0]?.search_total ?? 0 };
  }

  /** The `n` of a count statement: named when generic, planned for its values otherwise. */
  private async count(sql: string, args: unknown[], prepared: boolean): Promise<number> {
    const r: Array<{ n: number }> = prepared ? await this.sql.rows<{ n: number }>(sql, args) : await this.sql.planned<{ n: number }>(sql, args);
    return r[0]?.n ?? 0;
  }

  /** The condition of one assignee filter (`me` is `memberId`), its values bound through `bind`. */
  private assigneeSql(memberId: string, a: AssigneeFilter, bind: (v: unknown) => string): string {
    if (a.kind === 'unassigned') {
      return '(i.assignee_id IS NULL AND NOT EXISTS (SELECT 1 FROM issue_assignees a WHERE a.org_id = i.org_id AND a.issue_id = i.id))';
    }
    // primary assignee or any assignee link: the links are read once into a hashed subplan (a
    // correlated OR EXISTS would run a subquery per row of the organization)
    const p = bind(a.kind === 'me' ? memberId : a.id);
    return `(i.assignee_id = ${p} OR i.id IN (SELECT a.issue_id FROM issue_assignees a WHERE a.org_id = $1 AND a.member_id = ${p}))`;
  }
}
