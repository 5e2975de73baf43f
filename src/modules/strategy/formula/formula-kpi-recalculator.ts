import { Injectable, Logger } from '@nestjs/common';
import { type EntityManager } from 'typeorm';
import { type FormulaScope, KpisRepository } from '../kpis.repository';
import { TxRunner } from '../../../database/tx-runner';

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
 * lock so that concurrent recalculations cannot write an older count over a newer one; the
 * after-commit forms first probe, without the lock, whether any formula KPI is in scope (none:
 * nothing more runs). Issue changes are handled already (FormulaKpiIssueHandler on
 * IssueChangedEvent).
 */
@Injectable()
export class FormulaKpiRecalculator {
  private readonly log = new Logger('FormulaKpiRecalculator');

  constructor(
    private readonly tx: TxRunner,
    private readonly kpis: KpisRepository,
  ) {}

  recalculateForIssues(orgId: string, issueIds: string[], milestoneIds: string[] = []): Promise<string[]> {
    if (!issueIds.length && !milestoneIds.length) return Promise.resolve([]);
    return this.run(orgId, { kind: 'issues', issueIds, milestoneIds });
  }
  recalculateForInitiatives(orgId: string, initiativeIds: string[]): Promise<string[]> {
    if (!initiativeIds.length) return Promise.resolve([]);
    return this.run(orgId, { kind: 'initiatives', initiativeIds });
  }
  recalculateForGoals(orgId: string, goalIds: string[]): Promise<string[]> {
    if (!goalIds.length) return Promise.resolve([]);
    return this.run(orgId, { kind: 'goals', goalIds });
  }
  /** Alias kept for callers that think in one goal. */
  recalculateForGoal(orgId: string, goalId: string): Promise<string[]> {
    return this.recalculateForGoals(orgId, [goalId]);
  }
  recalculateForInitiative(orgId: string, initiativeId: string): Promise<string[]> {
    return this.recalculateForInitiatives(orgId, [initiativeId]);
  }
  recalculateForOrg(orgId: string): Promise<string[]> {
    return this.run(orgId, { kind: 'org' });
  }

  forIssuesIn(m: EntityManager, orgId: string, issueIds: string[], milestoneIds: string[] = []): Promise<string[]> {
    return this.update(m, orgId, { kind: 'issues', issueIds, milestoneIds });
  }
  forInitiativesIn(m: EntityManager, orgId: string, initiativeIds: string[]): Promise<string[]> {
    return this.update(m, orgId, { kind: 'initiatives', initiativeIds });
  }
  forGoalsIn(m: EntityManager, orgId: string, goalIds: string[]): Promise<string[]> {
    return this.update(m, orgId, { kind: 'goals', goalIds });
  }
  recalculateForOrgIn(m: EntityManager, orgId: string): Promise<string[]> {
    return this.update(m, orgId, { kind: 'org' });
  }
  forKpiIn(m: EntityManager, orgId: string, kpiId: string): Promise<string[]> {
    return this.update(m, orgId, { kind: 'kpi', kpiId });
  }

  /**
   * After the caller's commit: a probe without any lock first (one indexed statement; most
   * organizations have no formula KPI the change can reach), then the locked recalculation. The
   * probe misses nothing: it runs after the caller's commit, and a KPI or link committed after the
   * probe recalculates itself after ITS commit, seeing the caller's change.
   */
  private async run(orgId: string, scope: FormulaScope): Promise<string[]> {
    try {
      if (!(await this.kpis.anyFormula(orgId, scope))) return [];
      return await this.tx.run((m) => this.update(m, orgId, scope));
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
    await this.kpis.lockFormulas(orgId, m);
  }

  /** The lock, then the one statement (KpisRepository.recalculateFormulas). Returns the changed KPI ids. */
  private async update(m: EntityManager, orgId: string, scope: FormulaScope): Promise<string[]> {
    await this.lockIn(m, orgId);
    return this.kpis.recalculateFormulas(orgId, scope, m);
  }
}
