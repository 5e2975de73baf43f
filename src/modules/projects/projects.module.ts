import { Module } from '@nestjs/common';
import { MembersModule } from '../members/members.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { StrategyModule } from '../strategy/strategy.module';
import { TeamsModule } from '../teams/teams.module';
import { BoardRepository } from './board.repository';
import { BoardController } from './board.controller';
import { AddProjectMemberHandler } from './commands/add-project-member/add-project-member.handler';
import { AddProjectTeamHandler } from './commands/add-project-team/add-project-team.handler';
import { CreateBoardColumnHandler } from './commands/create-board-column/create-board-column.handler';
import { CreateBoardViewHandler } from './commands/create-board-view/create-board-view.handler';
import { CreateCustomViewHandler } from './commands/create-custom-view/create-custom-view.handler';
import { CreateProjectHandler } from './commands/create-project/create-project.handler';
import { DeleteBoardColumnHandler } from './commands/delete-board-column/delete-board-column.handler';
import { DeleteBoardViewHandler } from './commands/delete-board-view/delete-board-view.handler';
import { DeleteCustomViewHandler } from './commands/delete-custom-view/delete-custom-view.handler';
import { DeleteProjectHandler } from './commands/delete-project/delete-project.handler';
import { RemoveProjectMemberHandler } from './commands/remove-project-member/remove-project-member.handler';
import { RemoveProjectTeamHandler } from './commands/remove-project-team/remove-project-team.handler';
import { ReorderBoardColumnsHandler } from './commands/reorder-board-columns/reorder-board-columns.handler';
import { UpdateBoardColumnHandler } from './commands/update-board-column/update-board-column.handler';
import { UpdateBoardViewHandler } from './commands/update-board-view/update-board-view.handler';
import { UpdateCustomViewHandler } from './commands/update-custom-view/update-custom-view.handler';
import { UpdateProjectMemberHandler } from './commands/update-project-member/update-project-member.handler';
import { UpdateProjectHandler } from './commands/update-project/update-project.handler';
import { CustomViewsController } from './custom-views.controller';
import { CustomViewsRepository } from './custom-views.repository';
import { ProjectAccessController } from './project-access.controller';
import { ProjectAccessRepository } from './project-access.repository';
import { ProjectsController } from './projects.controller';
import { ProjectsRepository } from './projects.repository';
import { GetProjectHandler } from './queries/get-project/get-project.handler';
import { ListBoardColumnsHandler } from './queries/list-board-columns/list-board-columns.handler';
import { ListBoardViewsHandler } from './queries/list-board-views/list-board-views.handler';
import { ListCustomViewsHandler } from './queries/list-custom-views/list-custom-views.handler';
import { ListProjectMembersHandler } from './queries/list-project-members/list-project-members.handler';
import { ListProjectTeamsHandler } from './queries/list-project-teams/list-project-teams.handler';
import { ListProjectsHandler } from './queries/list-projects/list-projects.handler';

/**
 * Projects and what configures them: access entries and teams, board columns (the issue
 * statuses of the project), board views and custom views.
 */
@Module({
  imports: [StrategyModule, OrganizationsModule, MembersModule, TeamsModule],
  controllers: [ProjectsController, ProjectAccessController, BoardController, CustomViewsController],
  providers: [
    ProjectsRepository,
    ProjectAccessRepository,
    BoardRepository,
    CustomViewsRepository,
    // projects
    CreateProjectHandler,
    UpdateProjectHandler,
    DeleteProjectHandler,
    ListProjectsHandler,
    GetProjectHandler,
    // access entries and teams
    AddProjectMemberHandler,
    UpdateProjectMemberHandler,
    RemoveProjectMemberHandler,
    ListProjectMembersHandler,
    AddProjectTeamHandler,
    RemoveProjectTeamHandler,
    ListProjectTeamsHandler,
    // board columns and views
    ListBoardColumnsHandler,
    CreateBoardColumnHandler,
    UpdateBoardColumnHandler,
    DeleteBoardColumnHandler,
    ReorderBoardColumnsHandler,
    ListBoardViewsHandler,
    CreateBoardViewHandler,
    UpdateBoardViewHandler,
    DeleteBoardViewHandler,
    // custom views
    ListCustomViewsHandler,
    CreateCustomViewHandler,
    UpdateCustomViewHandler,
    DeleteCustomViewHandler,
  ],
  exports: [ProjectsRepository, ProjectAccessRepository, BoardRepository, CustomViewsRepository],
})
export class ProjectsModule {}
