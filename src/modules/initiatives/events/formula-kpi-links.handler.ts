import { Logger } from '@nestjs/common';
import { EventsHandler, type IEventHandler } from '@nestjs/cqrs';
import { PendingFormulaRecalculations } from '../../strategy/formula/formula-kpi-issue.handler';
import { FormulaKpiRecalculator } from '../../strategy/formula/formula-kpi-recalculator';
import { InitiativeLinksChangedEvent } from './initiative-links-changed.event';

/**
 * Keeps formula KPIs (`goal_linked_issue_completion`) current when an initiative's work links or
 * goal change: recalculates the KPIs of every affected goal (old and new) after commit. Tracked as
 * pending so KPI reads in this process see the new value; a failure is logged, never thrown.
 */
@EventsHandler(InitiativeLinksChangedEvent)
export class FormulaKpiLinksHandler implements IEventHandler<InitiativeLinksChangedEvent> {
  private readonly log = new Logger('FormulaKpiLinksHandler');

  constructor(
    private readonly recalc: FormulaKpiRecalculator,
    private readonly pending: PendingFormulaRecalculations,
  ) {}

  handle(e: InitiativeLinksChangedEvent): void {
    if (!e.goalIds.length) return;
    const p = this.recalc
      .recalculateForGoals(e.orgId, e.goalIds)
      .catch((err: unknown) => this.log.warn(`Formula KPIs not recalculated after initiative ${e.initiativeId} ${e.change}: ${(err as Error)?.message}`));
    this.pending.track(p);
  }
}
