import { Injectable, Logger } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { LINKED_ISSUES_SQL } from '../../strategy-health/strategy-health.loader';

/**
 * Formula KPIs (`source_type: formula`), `goal_linked_issue_completion`:
 *   target_value  = the non-archived issues linked to any initiative of the KPI's goal, directly
 *                   (initiative_issues) or through a linked milestone (initiative_milestones →
 *                   issues.milestone_id), each issue counted once;
 *   current_value = those of them whose status is in `source_config.done_statuses`.
 * A formula KPI without a goal is 0 of 0. `last_recorded_at` is the time of the last change.
 *
 * Calling it (other modules): after YOUR transaction commits, call one of
 *   - recalculateForIssues(orgId, issueIds, milestoneIds?)  issues changed, or their links did
 *   - recalculateForInitiatives(orgId, initiativeIds)       initiative links (issues, milestones,
 *                                                           goal) changed; pass the old and new ids
 *   - recalculateForGoals(orgId, goalIds)                   a goal's set of initiatives changed
 *   - recalculateForOrg(orgId)                              anything else (deletes that cascade)
 * (or the `...In(m, ...)` forms with an EntityManager to recalculate inside your transaction).
 * Each is one indexed UPDATE over the affected formula KPIs, after a per-organization advisory
 * lock so that concurrent recalculations cannot write an older count over a newer one. Issue
 * changes are handled already (FormulaKpiIssueHandler on IssueChangedEvent).
 */
@Injectable()
export class FormulaKpiRecalculator {
  private readonly log = new Logger('FormulaKpiRecalculator');

  constructor(private readonly db: DataSource) {}

  recalculateForIssues(orgId: string, issueIds: string[], milestoneIds: string[] = []): Promise<string[]> {
    if (!issueIds.length && !milestoneIds.length) return Promise.resolve([]);
    return this.run((m) => this.forIssuesIn(m, orgId, issueIds, milestoneIds));
  }
  recalculateForInitiatives(orgId: string, initiativeIds: string[]): Promise<string[]> {
    if (!initiativeIds.length) return Promise.resolve([]);
    return this.run((m) => this.forInitiativesIn(m, orgId, initiativeIds));
  }
  recalculateForGoals(orgId: string, goalIds: string[]): Promise<string[]> {
    if (!goalIds.length) return Promise.resolve([]);
    return this.run((m) => this.forGoalsIn(m, orgId, goalIds));
  }
  /** Alias kept for callers that think in one goal. */
  recalculateForGoal(orgId: string, goalId: string): Promise<string[]> {
    return this.recalculateForGoals(orgId, [goalId]);
  }
  recalculateForInitiative(orgId: string, initiativeId: string): Promise<string[]> {
    return this.recalculateForInitiatives(orgId, [initiativeId]);
  }
  recalculateForOrg(orgId: string): Promise<string[]> {
    return this.run((m) => this.recalculateForOrgIn(m, orgId));
  }

  forIssuesIn(m: EntityManager, orgId: string, issueIds: string[], milestoneIds: string[] = []): Promise<string[]> {
    return this.update(
      m,
      orgId,
      `k.goal_id IN (
         SELECT n.goal_id FROM initiative_issues ii JOIN initiatives n ON n.org_id = ii.org_id AND n.id = ii.initiative_id
          WHERE ii.org_id = $1 AND ii.issue_id = ANY($2::uuid[])
         UNION
         SELECT n.goal_id FROM initiative_milestones im JOIN initiatives n ON n.org_id = im.org_id AND n.id = im.initiative_id
          WHERE im.org_id = $1 AND (im.milestone_id = ANY($3::uuid[])
             OR im.milestone_id IN (SELECT i.milestone_id FROM issues i WHERE i.org_id = $1 AND i.id = ANY($2::uuid[]) AND i.milestone_id IS NOT NULL)))`,
      [issueIds, milestoneIds],
    );
  }
  forInitiativesIn(m: EntityManager, orgId: string, initiativeIds: string[]): Promise<string[]> {
    return this.update(m, orgId, 'k.goal_id IN (SELECT n.goal_id FROM initiatives n WHERE n.org_id = $1 AND n.id = ANY($2::uuid[]))', [initiativeIds]);
  }
  forGoalsIn(m: EntityManager, orgId: string, goalIds: string[]): Promise<string[]> {
    return this.update(m, orgId, 'k.goal_id = ANY($2::uuid[])', [goalIds]);
  }
  recalculateForOrgIn(m: EntityManager, orgId: string): Promise<string[]> {
    return this.update(m, orgId, 'TRUE', []);
  }
  forKpiIn(m: EntityManager, orgId: string, kpiId: string): Promise<string[]> {
    return this.update(m, orgId, 'k.id = $2', [kpiId]);
  }

  private async run(fn: (m: EntityManager) => Promise<string[]>): Promise<string[]> {
    try {
      return await this.db.transaction(fn);
    } catch (e) {
      this.log.error(`Formula KPI recalculation failed: ${(e as Error)?.message}`);
      throw e;
    }
  }

  /**
   * Takes the organization's formula lock (transaction-scoped, re-entrant). A transaction that
   * locks or changes KPI rows (UPDATE, FOR UPDATE, a delete that cascades into kpis) and then
   * recalculates must call this FIRST: a recalculation holds the lock while it updates KPI rows,
   * so taking the row locks first would deadlock with it.
   */
  async lockIn(m: EntityManager, orgId: string): Promise<void> {
    await m.query(`SELECT pg_advisory_xact_lock(hashtextextended('formula-kpi:' || $1::text, 0))`, [orgId]);
  }

  /** The one statement: recalculates the formula KPIs matching `where` (alias `k`; `$1` = org). Returns the changed KPI ids. */
  private async update(m: EntityManager, orgId: string, where: string, params: unknown[]): Promise<string[]> {
    await this.lockIn(m, orgId);
    const raw: unknown = await m.query(
      `WITH k AS MATERIALIZED (
         SELECT k.org_id, k.id, k.goal_id, k.source_config FROM kpis k
          WHERE k.org_id = $1 AND k.source_type = 'formula' AND (${where})),
       calc AS (
         SELECT k.id, c.done, c.total
           FROM k
          CROSS JOIN LATERAL (
            SELECT count(*) FILTER (WHERE i.status = ANY(ARRAY(SELECT jsonb_array_elements_text(k.source_config -> 'done_statuses'))))::float8 AS done,
                   count(*)::float8 AS total
              FROM (SELECT DISTINCT l.issue_id FROM initiatives n CROSS JOIN LATERAL (${LINKED_ISSUES_SQL('n')}) l
                     WHERE n.org_id = k.org_id AND n.goal_id = k.goal_id) l
              JOIN issues i ON i.org_id = k.org_id AND i.id = l.issue_id AND i.archived_at IS NULL) c)
       UPDATE kpis SET current_value = calc.done, target_value = calc.total, last_recorded_at = now(), updated_at = now()
         FROM calc
        WHERE kpis.org_id = $1 AND kpis.id = ANY(ARRAY(SELECT k.id FROM k)) AND kpis.id = calc.id
          AND (kpis.current_value IS DISTINCT FROM calc.done OR kpis.target_value IS DISTINCT FROM calc.total OR kpis.last_recorded_at IS NULL)
       RETURNING kpis.id`,
      [orgId, ...params],
    );
    // TypeORM returns [rows, rowCount] for UPDATE ... RETURNING on PostgreSQL
    const rows = (Array.isArray(raw) && Array.isArray(raw[0]) ? raw[0] : raw) as Array<{ id: string }>;
    return rows.map((r) => r.id);
  }
}
