import { BoardContextController } from './board-context.controller';
import { BoardContextRepository } from './board-context.repository';
import { GetBoardContextHandler } from './queries/get-board-context/get-board-context.handler';
import { Module } from '@nestjs/common';
import { IssuesModule } from '../issues/issues.module';
import { MembersModule } from '../members/members.module';
import { MilestonesModule } from '../milestones/milestones.module';
import { StrategyModule } from '../strategy/strategy.module';
import { FormulaKpiLinksHandler } from './events/formula-kpi-links.handler';
import { AddKpiImpactHandler } from './commands/add-kpi-impact/add-kpi-impact.handler';
import { CreateInitiativeHandler } from './commands/create-initiative/create-initiative.handler';
import { CreateTargetHandler } from './commands/create-target/create-target.handler';
import { DeleteInitiativeHandler } from './commands/delete-initiative/delete-initiative.handler';
import { DeleteTargetHandler } from './commands/delete-target/delete-target.handler';
import { LinkInitiativeIssueHandler } from './commands/link-initiative-issue/link-initiative-issue.handler';
import { LinkInitiativeMilestoneHandler } from './commands/link-initiative-milestone/link-initiative-milestone.handler';
import { LinkInitiativeProjectHandler } from './commands/link-initiative-project/link-initiative-project.handler';
import { LinkIssueInitiativeHandler } from './commands/link-issue-initiative/link-issue-initiative.handler';
import { LinkTargetIssueHandler } from './commands/link-target-issue/link-target-issue.handler';
import { LinkTargetMilestoneHandler } from './commands/link-target-milestone/link-target-milestone.handler';
import { RemoveKpiImpactHandler } from './commands/remove-kpi-impact/remove-kpi-impact.handler';
import { UnlinkInitiativeIssueHandler } from './commands/unlink-initiative-issue/unlink-initiative-issue.handler';
import { UnlinkInitiativeMilestoneHandler } from './commands/unlink-initiative-milestone/unlink-initiative-milestone.handler';
import { UnlinkInitiativeProjectHandler } from './commands/unlink-initiative-project/unlink-initiative-project.handler';
import { UnlinkIssueInitiativeHandler } from './commands/unlink-issue-initiative/unlink-issue-initiative.handler';
import { UnlinkTargetIssueHandler } from './commands/unlink-target-issue/unlink-target-issue.handler';
import { UnlinkTargetMilestoneHandler } from './commands/unlink-target-milestone/unlink-target-milestone.handler';
import { UpdateInitiativeHandler } from './commands/update-initiative/update-initiative.handler';
import { UpdateTargetHandler } from './commands/update-target/update-target.handler';
import { GetInitiativeHandler } from './queries/get-initiative/get-initiative.handler';
import { GetTargetHandler } from './queries/get-target/get-target.handler';
import { ListInitiativeIssuesHandler } from './queries/list-initiative-issues/list-initiative-issues.handler';
import { ListInitiativeMilestonesHandler } from './queries/list-initiative-milestones/list-initiative-milestones.handler';
import { ListInitiativesHandler } from './queries/list-initiatives/list-initiatives.handler';
import { ListIssueInitiativesHandler } from './queries/list-issue-initiatives/list-issue-initiatives.handler';
import { ListKpiImpactsHandler } from './queries/list-kpi-impacts/list-kpi-impacts.handler';
import { ListTargetIssuesHandler } from './queries/list-target-issues/list-target-issues.handler';
import { ListTargetMilestonesHandler } from './queries/list-target-milestones/list-target-milestones.handler';
import { ListTargetsHandler } from './queries/list-targets/list-targets.handler';
import { InitiativeEventsPublisher } from './initiative-events';
import { InitiativeLinks } from './initiative-links.service';
import { InitiativeScope } from './initiative-scope.service';
import { InitiativeTargetsController } from './initiative-targets.controller';
import { InitiativeTargetsRepository } from './initiative-targets.repository';
import { InitiativeReader } from './initiative.reader';
import { InitiativesController } from './initiatives.controller';
import { InitiativesRepository } from './initiatives.repository';
import { IssueInitiativesController } from './issue-initiatives.controller';

/**
 * Initiatives, their links (projects, KPI impacts, issues, milestones), the issue side of issue
 * links, and initiative targets with their issue and milestone links.
 *
 * Projects of an initiative: its primary `project_id` plus every project linked through
 * `/projects`. Read: with a primary project, that project's access; without one, non-guests, or a
 * guest who can read any linked project (404 otherwise). Writes (update, delete, every link,
 * creating targets): edit/admin on EVERY project of the initiative; an initiative with no
 * project at all is organization-level and only owners/admins change it (403 otherwise).
 * Create: edit on `project_id`; without it owners/admins only, and guests/project-scoped agents
 * get 403 `project_required`.
 *
 * Issue links (both sides, initiative and target): the initiative/target is authorized first,
 * then the issue reference is resolved by IssueReferenceResolver (400 invalid, 404 unreadable,
 * 409 ambiguous); a project-bound issue's project must already be linked to the initiative (404
 * `issue_out_of_scope`) and be writable; projectless issues are writable by non-guests. Milestone
 * links: UUID or exact name (409 `ambiguous_milestone`), same project rule (404
 * `milestone_out_of_scope`). Duplicate links are idempotent (200 with the existing link); KPI
 * impacts are unique per KPI (409 `kpi_impact_exists`).
 *
 * Targets have a typed scope: `initiative` (the initiative's projects, live) or `projects` (a
 * subset of them). Target read/update/delete follow the scope; target link writes need edit on
 * every target and initiative project.
 *
 * After commit: `initiative.linked`/`initiative.unlinked` and `initiative_target.linked`/
 * `initiative_target.unlinked` on the issue timeline, and InitiativeLinksChangedEvent, on which
 * FormulaKpiLinksHandler recalculates the formula KPIs of the affected goals.
 */
@Module({
  imports: [IssuesModule, StrategyModule, MilestonesModule, MembersModule],
  controllers: [InitiativesController, InitiativeTargetsController, IssueInitiativesController, BoardContextController],
  providers: [
    BoardContextRepository,
    GetBoardContextHandler,
    InitiativesRepository,
    InitiativeTargetsRepository,
    InitiativeScope,
    InitiativeLinks,
    InitiativeReader,
    InitiativeEventsPublisher,
    FormulaKpiLinksHandler,
    AddKpiImpactHandler,
    CreateInitiativeHandler,
    CreateTargetHandler,
    DeleteInitiativeHandler,
    DeleteTargetHandler,
    LinkInitiativeIssueHandler,
    LinkInitiativeMilestoneHandler,
    LinkInitiativeProjectHandler,
    LinkIssueInitiativeHandler,
    LinkTargetIssueHandler,
    LinkTargetMilestoneHandler,
    RemoveKpiImpactHandler,
    UnlinkInitiativeIssueHandler,
    UnlinkInitiativeMilestoneHandler,
    UnlinkInitiativeProjectHandler,
    UnlinkIssueInitiativeHandler,
    UnlinkTargetIssueHandler,
    UnlinkTargetMilestoneHandler,
    UpdateInitiativeHandler,
    UpdateTargetHandler,
    GetInitiativeHandler,
    GetTargetHandler,
    ListInitiativeIssuesHandler,
    ListInitiativeMilestonesHandler,
    ListInitiativesHandler,
    ListIssueInitiativesHandler,
    ListKpiImpactsHandler,
    ListTargetIssuesHandler,
    ListTargetMilestonesHandler,
    ListTargetsHandler,
  ],
  exports: [InitiativeScope, InitiativesRepository, InitiativeTargetsRepository],
})
export class InitiativesModule {}
