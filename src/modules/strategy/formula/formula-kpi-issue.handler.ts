import { Injectable, Logger } from '@nestjs/common';
import { EventsHandler, type IEventHandler } from '@nestjs/cqrs';
import { IssueChangedEvent } from '../../../common/events/domain-events';
import { FormulaKpiRecalculator } from './formula-kpi-recalculator';

/** Recalculations started in this process and not finished; KPI reads wait for them (read-your-writes). */
@Injectable()
export class PendingFormulaRecalculations {
  private readonly pending = new Set<Promise<unknown>>();

  track(p: Promise<unknown>): void {
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p)).catch(() => undefined);
  }

  async settle(): Promise<void> {
    if (this.pending.size) await Promise.allSettled([...this.pending]);
  }
}

/** Issue fields whose change can move a formula KPI. */
const RELEVANT_FIELDS = ['status', 'milestone_id', 'project_id', 'archived_at'];

/**
 * Keeps formula KPIs current when issues change (after commit): status, archive, milestone and
 * project changes and creation recalculate the KPIs of goals whose initiatives link the issue
 * (directly or through its milestone). A deleted issue's links are gone by then, and a milestone
 * change loses the old milestone, so those recalculate every formula KPI of the organization. A
 * new issue without a milestone cannot be linked yet: nothing to do. The changes an organization
 * commits in one turn of the event loop (a bulk create publishes one event per issue) are
 * recalculated together. A failure is logged and never breaks the request that caused it.
 */
@EventsHandler(IssueChangedEvent)
export class FormulaKpiIssueHandler implements IEventHandler<IssueChangedEvent> {
  private readonly log = new Logger('FormulaKpiIssueHandler');
  /** Per organization, the changes waiting for the next turn: issue ids, or 'org' for every formula KPI. */
  private readonly queued = new Map<string, Set<string> | 'org'>();

  constructor(
    private readonly recalc: FormulaKpiRecalculator,
    private readonly pending: PendingFormulaRecalculations,
  ) {}

  handle(e: IssueChangedEvent): void {
    if (e.kind === 'updated' && !e.changedFields.some((f) => RELEVANT_FIELDS.includes(f))) return;
    if (e.kind === 'created' && e.after.milestoneId === null) return;
    const wide = e.kind === 'deleted' || e.changedFields.includes('milestone_id') || e.changedFields.includes('project_id');
    const queued = this.queued.get(e.orgId);
    if (queued === 'org') return;
    if (wide) this.queued.set(e.orgId, 'org');
    else if (queued) queued.add(e.issueId);
    if (queued) return;
    if (!wide) this.queued.set(e.orgId, new Set([e.issueId]));
    const p = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      const what = this.queued.get(e.orgId)!;
      this.queued.delete(e.orgId);
      try {
        await (what === 'org' ? this.recalc.recalculateForOrg(e.orgId) : this.recalc.recalculateForIssues(e.orgId, [...what]));
      } catch (err) {
        this.log.warn(`Formula KPIs not recalculated after issue changes in ${e.orgId}: ${(err as Error)?.message}`);
      }
    });
    this.pending.track(p);
  }
}
