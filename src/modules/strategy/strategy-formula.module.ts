import { Module } from '@nestjs/common';
import { FormulaKpiIssueHandler, PendingFormulaRecalculations } from './formula/formula-kpi-issue.handler';
import { FormulaKpiRecalculator } from './formula/formula-kpi-recalculator';
import { KpisRepository } from './kpis.repository';

/**
 * Formula KPIs (`goal_linked_issue_completion`) kept current after issue changes. Loaded by the API
 * (through StrategyModule) and by the worker process, whose jobs change issues too (the recurrence
 * sweep creates issues that may sit in a linked milestone). Provides KpisRepository (the
 * recalculation's statements) to both, and through StrategyModule to the strategy handlers.
 */
@Module({
  providers: [KpisRepository, FormulaKpiRecalculator, PendingFormulaRecalculations, FormulaKpiIssueHandler],
  exports: [KpisRepository, FormulaKpiRecalculator, PendingFormulaRecalculations],
})
export class StrategyFormulaModule {}
