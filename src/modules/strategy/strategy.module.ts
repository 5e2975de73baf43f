import { Module } from '@nestjs/common';
import { MembersModule } from '../members/members.module';
import { StrategyHealthModule } from '../strategy-health/strategy-health.module';
import { CreateGoalHandler } from './commands/create-goal/create-goal.handler';
import { CreateKpiHandler } from './commands/create-kpi/create-kpi.handler';
import { DeleteGoalHandler } from './commands/delete-goal/delete-goal.handler';
import { DeleteKpiHandler } from './commands/delete-kpi/delete-kpi.handler';
import { RecordSnapshotHandler } from './commands/record-snapshot/record-snapshot.handler';
import { UpdateGoalHandler } from './commands/update-goal/update-goal.handler';
import { UpdateKpiHandler } from './commands/update-kpi/update-kpi.handler';
import { GetGoalHandler } from './queries/get-goal/get-goal.handler';
import { GetKpiHandler } from './queries/get-kpi/get-kpi.handler';
import { ListGoalsHandler } from './queries/list-goals/list-goals.handler';
import { ListKpisHandler } from './queries/list-kpis/list-kpis.handler';
import { ListSnapshotsHandler } from './queries/list-snapshots/list-snapshots.handler';
import { StrategyAuditHandler } from './queries/strategy-audit/strategy-audit.handler';
import { GoalsRepository } from './goals.repository';
import { StrategyAccess } from './strategy-access';
import { StrategyFormulaModule } from './strategy-formula.module';
import { StrategyController } from './strategy.controller';

/**
 * Strategy: goals, KPIs, KPI snapshots, formula KPIs and the strategy audit (initiatives and KPI
 * HTTP syncs are their own modules).
 *
 * - Reads: project-bound records follow project access, organization-level ones (no project) are
 *   readable by non-guests; unreadable = 404 on detail, left out of lists.
 * - Writes (goals, KPIs, snapshots): organization owners and admins (403; 404 first when unreadable).
 * - Formula KPIs (`goal_linked_issue_completion`) are recalculated by FormulaKpiRecalculator,
 *   exported for the initiatives module (call it after link changes commit).
 * - GoalsRepository and KpisRepository (through StrategyFormulaModule) are exported: other modules
 *   read goals and KPIs through them.
 * - The audit judges with the strategy-health module; guests get 403.
 */
@Module({
  imports: [StrategyHealthModule, StrategyFormulaModule, MembersModule],
  controllers: [StrategyController],
  providers: [
    GoalsRepository,
    StrategyAccess,
    CreateGoalHandler,
    UpdateGoalHandler,
    DeleteGoalHandler,
    ListGoalsHandler,
    GetGoalHandler,
    CreateKpiHandler,
    UpdateKpiHandler,
    DeleteKpiHandler,
    ListKpisHandler,
    GetKpiHandler,
    RecordSnapshotHandler,
    ListSnapshotsHandler,
    StrategyAuditHandler,
  ],
  exports: [StrategyFormulaModule, StrategyAccess, GoalsRepository],
})
export class StrategyModule {}
