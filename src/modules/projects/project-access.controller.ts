import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CurrentActor, OrgScoped } from '../../common/auth/decorators';
import { Actor } from '../../common/auth/principal';
import { UuidParamPipe } from '../../common/http/validation';
import { AddProjectMemberCommand } from './commands/add-project-member/add-project-member.command';
import { AddProjectMemberDto } from './commands/add-project-member/add-project-member.dto';
import { AddProjectTeamCommand } from './commands/add-project-team/add-project-team.command';
import { AddProjectTeamDto } from './commands/add-project-team/add-project-team.dto';
import { RemoveProjectMemberCommand } from './commands/remove-project-member/remove-project-member.command';
import { RemoveProjectTeamCommand } from './commands/remove-project-team/remove-project-team.command';
import { UpdateProjectMemberCommand } from './commands/update-project-member/update-project-member.command';
import { UpdateProjectMemberDto } from './commands/update-project-member/update-project-member.dto';
import { ProjectMemberEnvelope, ProjectMemberListResponse, ProjectsSuccessResponse, ProjectTeamEnvelope, ProjectTeamListResponse } from './projects.response';
import { ListProjectMembersQuery } from './queries/list-project-members/list-project-members.query';
import { ListProjectTeamsQuery } from './queries/list-project-teams/list-project-teams.query';
import { ApiErrors } from '../../common/openapi/decorators';

/** Who may work on a project: explicit member access entries and assigned teams. */
@ApiTags('projects')
@ApiParam({ name: 'id', description: 'Organization id' })
@OrgScoped()
@Controller('api/orgs/:id/projects/:projectId')
export class ProjectAccessController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('members')
  @ApiOperation({ summary: 'List the project’s access entries (needs read access)' })
  @ApiOkResponse({ type: ProjectMemberListResponse })
  listMembers(@CurrentActor() actor: Actor, @Param('projectId', UuidParamPipe) projectId: string): Promise<ProjectMemberListResponse> {
    return this.queries.execute(new ListProjectMembersQuery(actor, projectId));
  }

  @Post('members')
  @ApiOperation({ summary: 'Give a member access: { memberId, accessLevel? } (default edit; project admin)' })
  @ApiCreatedResponse({ type: ProjectMemberEnvelope })
  @ApiErrors({ 409: '`project_member_exists`: the member already has an entry (use PATCH)' })
  addMember(
    @CurrentActor() actor: Actor,
    @Param('projectId', UuidParamPipe) projectId: string,
    @Body() dto: AddProjectMemberDto,
  ): Promise<ProjectMemberEnvelope> {
    return this.commands.execute(new AddProjectMemberCommand(actor, projectId, dto));
  }

  @Patch('members')
  @ApiOperation({ summary: 'Change a member’s access level: { memberId, accessLevel } (project admin)' })
  @ApiOkResponse({ type: ProjectMemberEnvelope })
  updateMember(
    @CurrentActor() actor: Actor,
    @Param('projectId', UuidParamPipe) projectId: string,
    @Body() dto: UpdateProjectMemberDto,
  ): Promise<ProjectMemberEnvelope> {
    return this.commands.execute(new UpdateProjectMemberCommand(actor, projectId, dto));
  }

  @Delete('members')
  @ApiOperation({ summary: 'Remove a member’s access entry (project admin); applies on their next request' })
  @ApiQuery({ name: 'memberId', required: true, description: 'Member id (alias `member_id`)' })
  @ApiOkResponse({ type: ProjectsSuccessResponse })
  removeMember(
    @CurrentActor() actor: Actor,
    @Param('projectId', UuidParamPipe) projectId: string,
    @Query() query: Record<string, unknown>,
  ): Promise<ProjectsSuccessResponse> {
    return this.commands.execute(new RemoveProjectMemberCommand(actor, projectId, query));
  }

  @Get('teams')
  @ApiOperation({ summary: 'List the teams assigned to the project (needs read access)' })
  @ApiOkResponse({ type: ProjectTeamListResponse })
  listTeams(@CurrentActor() actor: Actor, @Param('projectId', UuidParamPipe) projectId: string): Promise<ProjectTeamListResponse> {
    return this.queries.execute(new ListProjectTeamsQuery(actor, projectId));
  }

  @Post('teams')
  @ApiOperation({ summary: 'Assign a team: { teamId } (project admin); team members get edit access' })
  @ApiCreatedResponse({ type: ProjectTeamEnvelope })
  @ApiErrors({ 409: '`project_team_exists`: the team is already assigned' })
  addTeam(@CurrentActor() actor: Actor, @Param('projectId', UuidParamPipe) projectId: string, @Body() dto: AddProjectTeamDto): Promise<ProjectTeamEnvelope> {
    return this.commands.execute(new AddProjectTeamCommand(actor, projectId, dto));
  }

  @Delete('teams')
  @ApiOperation({ summary: 'Unassign a team (project admin)' })
  @ApiQuery({ name: 'teamId', required: true, description: 'Team id (alias `team_id`)' })
  @ApiOkResponse({ type: ProjectsSuccessResponse })
  removeTeam(
    @CurrentActor() actor: Actor,
    @Param('projectId', UuidParamPipe) projectId: string,
    @Query() query: Record<string, unknown>,
  ): Promise<ProjectsSuccessResponse> {
    return this.commands.execute(new RemoveProjectTeamCommand(actor, projectId, query));
  }
}
