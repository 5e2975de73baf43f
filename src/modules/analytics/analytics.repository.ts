import { Injectable } from '@nestjs/common';
import { Sql } from '../../database/sql.service';

/** Which issues an analytics request aggregates. */
export interface AnalyticsScope {
  orgId: string;
  /** Every project readable, or these. */
  projects: 'all' | string[];
  /** Projectless issues too (non-guests). */
  projectless: boolean;
  projectId: string | null;
  teamId: string | null;
  from: Date;
  to: Date;
}

/** The aggregates of one scope and range, before member names (what a kept result holds). */
export interface AnalyticsAggregates {
  days: Array<{ date: string; created: number; completed: number; cancelled: number; open: number }>;
  open_at_start: number;
  cycle: { p50: number | null; p90: number | null; count: number };
  lead: { p50: number | null; p90: number | null; count: number };
  completed_by_assignee: Array<{ assignee_id: string | null; count: number }>;
  status: Array<{ status: string; count: number }>;
  priority: Array<{ priority: number; count: number }>;
  open_by_assignee: Array<{ assignee_id: string | null; count: number }>;
}

/**
 * One statement, set-based over the scope's issues and their status moves in the timeline:
 * - facts per issue: created, done (its completion time while done), cancelled (its latest move
 *   to `cancelled` while cancelled; created cancelled: its creation), started (its first move to
 *   `in_progress`);
 * - per UTC day of the range: created, completed, cancelled, open at the end of the day (open at
 *   the start plus the day-by-day difference);
 * - cycle time (first `in_progress` to done) and lead time (created to done) in hours, p50/p90,
 *   over the issues completed in the range; completions per primary assignee;
 * - current status, priority and open work per assignee over the scope's non-archived issues
 *   created before the range's end.
 */
export const AGGREGATES_SQL = `
WITH scope AS (
  SELECT i.id, i.status, i.priority, i.created_at, i.completed_at, i.assignee_id, i.archived_at
    FROM issues i
   WHERE i.org_id = $1
     AND (CASE WHEN i.project_id IS NULL THEN $4::boolean ELSE ($2::boolean OR i.project_id = ANY($3::uuid[])) END)
     AND ($5::uuid IS NULL OR i.project_id = $5::uuid)
     AND ($6::uuid IS NULL OR i.team_id = $6::uuid)
     AND i.created_at < $8
),
moves AS (
  SELECT e.issue_id,
         min(e.created_at) FILTER (WHERE e.metadata->>'to_status' = 'in_progress') AS started_at,
         max(e.created_at) FILTER (WHERE e.metadata->>'to_status' = 'cancelled') AS cancelled_at
    FROM activity_events e
   WHERE e.org_id = $1 AND e.action = 'issue.updated' AND e.metadata ? 'to_status'
     AND (e.metadata->>'to_status') IN ('in_progress', 'cancelled') AND e.created_at < $8
   GROUP BY e.issue_id
),
facts AS (
  SELECT s.id, s.status, s.priority, s.created_at, s.assignee_id, s.archived_at, m.started_at,
         CASE WHEN s.status = 'done' THEN greatest(s.completed_at, s.created_at) END AS done_at,
         CASE WHEN s.status = 'cancelled' THEN greatest(coalesce(m.cancelled_at, s.created_at), s.created_at) END AS cancelled_at
    FROM scope s LEFT JOIN moves m ON m.issue_id = s.id
),
days AS (
  SELECT d::date AS day FROM generate_series(($7 AT TIME ZONE 'UTC')::date, (($8 - interval '1 microsecond') AT TIME ZONE 'UTC')::date, interval '1 day') d
),
per_day AS (
  SELECT days.day,
         count(*) FILTER (WHERE f.kind = 'c')::int AS created,
         count(*) FILTER (WHERE f.kind = 'd')::int AS completed,
         count(*) FILTER (WHERE f.kind = 'x')::int AS cancelled
    FROM days
    LEFT JOIN (
      SELECT 'c' AS kind, (created_at AT TIME ZONE 'UTC')::date AS day FROM facts WHERE created_at >= $7
      UNION ALL SELECT 'd', (done_at AT TIME ZONE 'UTC')::date FROM facts WHERE done_at >= $7 AND done_at < $8
      UNION ALL SELECT 'x', (cancelled_at AT TIME ZONE 'UTC')::date FROM facts WHERE cancelled_at >= $7 AND cancelled_at < $8
    ) f ON f.day = days.day
   GROUP BY days.day
),
open_start AS (
  SELECT count(*)::int AS n FROM facts WHERE created_at < $7 AND coalesce(done_at, cancelled_at, 'infinity') >= $7
),
done_in_range AS (
  SELECT * FROM facts WHERE done_at >= $7 AND done_at < $8
)
SELECT
  (SELECT n FROM open_start) AS open_at_start,
  (SELECT coalesce(json_agg(json_build_object(
      'date', to_char(day, 'YYYY-MM-DD'), 'created', created, 'completed', completed, 'cancelled', cancelled,
      'open', (SELECT n FROM open_start) + delta) ORDER BY day), '[]'::json)
     FROM (SELECT *, sum(created - completed - cancelled) OVER (ORDER BY day)::int AS delta FROM per_day) d) AS days,
  (SELECT json_build_object(
      'p50', percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM done_at - started_at) / 3600),
      'p90', percentile_cont(0.9) WITHIN GROUP (ORDER BY extract(epoch FROM done_at - started_at) / 3600),
      'count', count(*))
     FROM done_in_range WHERE started_at IS NOT NULL AND started_at <= done_at) AS cycle,
  (SELECT json_build_object(
      'p50', percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM done_at - created_at) / 3600),
      'p90', percentile_cont(0.9) WITHIN GROUP (ORDER BY extract(epoch FROM done_at - created_at) / 3600),
      'count', count(*))
     FROM done_in_range) AS lead,
  (SELECT coalesce(json_agg(json_build_object('assignee_id', assignee_id, 'count', n) ORDER BY n DESC, assignee_id), '[]'::json)
     FROM (SELECT assignee_id, count(*)::int AS n FROM done_in_range GROUP BY assignee_id) a) AS completed_by_assignee,
  (SELECT coalesce(json_agg(json_build_object('status', status, 'count', n) ORDER BY n DESC, status), '[]'::json)
     FROM (SELECT status, count(*)::int AS n FROM facts WHERE archived_at IS NULL GROUP BY status) a) AS status,
  (SELECT coalesce(json_agg(json_build_object('priority', priority, 'count', n) ORDER BY priority), '[]'::json)
     FROM (SELECT priority, count(*)::int AS n FROM facts WHERE archived_at IS NULL GROUP BY priority) a) AS priority,
  (SELECT coalesce(json_agg(json_build_object('assignee_id', assignee_id, 'count', n) ORDER BY n DESC, assignee_id), '[]'::json)
     FROM (SELECT assignee_id, count(*)::int AS n FROM facts
            WHERE archived_at IS NULL AND status NOT IN ('done', 'cancelled')
            GROUP BY assignee_id) a) AS open_by_assignee`;

/** Analytics reads (issues and the timeline's status moves; member names for the response). */
@Injectable()
export class AnalyticsRepository {
  constructor(private readonly sql: Sql) {}

  async aggregates(s: AnalyticsScope): Promise<AnalyticsAggregates> {
    const row = await this.sql.row<AnalyticsAggregates>(AGGREGATES_SQL, [
      s.orgId,
      s.projects === 'all',
      s.projects === 'all' ? [] : s.projects,
      s.projectless,
      s.projectId,
      s.teamId,
      s.from,
      s.to,
    ]);
    return row!;
  }

  /** Display name and type of members (assignees named by the aggregates), by id. */
  async members(orgId: string, ids: string[]): Promise<Map<string, { display_name: string; type: 'human' | 'agent' }>> {
    if (!ids.length) return new Map();
    const rows = await this.sql.rows<{ id: string; display_name: string; type: 'human' | 'agent' }>(
      'SELECT id, display_name, type FROM members WHERE org_id = $1 AND id = ANY($2::uuid[])',
      [orgId, ids],
    );
    return new Map(rows.map((r) => [r.id, r]));
  }
}
