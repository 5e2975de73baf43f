import { Module } from '@nestjs/common';
import { FormulaKpiIssueHandler, PendingFormulaRecalculations } from './formula/formula-kpi-issue.handler';
import { FormulaKpiRecalculator } from './formula/formula-kpi-recalculator';

/**
 * Formula KPIs (`goal_linked_issue_completion`) kept current after issue changes. Loaded by the API
 * (through StrategyModule) and by the worker process, whose jobs change issues too (the recurrence
 * sweep creates issues that may sit in a linked milestone).
 */
@Module({
  providers: [FormulaKpiRecalculator, PendingFormulaRecalculations, FormulaKpiIssueHandler],
  exports: [FormulaKpiRecalculator, PendingFormulaRecalculations],
})
export class StrategyFormulaModule {}
