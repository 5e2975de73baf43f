import { applyDecorators, Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CurrentActor, OrgScoped } from '../../common/auth/decorators';
import type { Actor } from '../../common/auth/principal';
import { Errors } from '../../common/errors/domain-error';
import { parsePage } from '../../common/http/list';
import { UuidParamPipe } from '../../common/http/validation';
import { AddTeamMemberCommand } from './commands/add-team-member/add-team-member.command';
import { AddTeamMemberDto } from './commands/add-team-member/add-team-member.dto';
import { CreateTeamCommand } from './commands/create-team/create-team.command';
import { CreateTeamDto } from './commands/create-team/create-team.dto';
import { DeleteTeamCommand } from './commands/delete-team/delete-team.command';
import { RemoveTeamMemberCommand } from './commands/remove-team-member/remove-team-member.command';
import { UpdateTeamCommand } from './commands/update-team/update-team.command';
import { UpdateTeamDto } from './commands/update-team/update-team.dto';
import { GetTeamQuery } from './queries/get-team/get-team.query';
import { ListTeamMembersQuery } from './queries/list-team-members/list-team-members.query';
import { ListTeamsQuery } from './queries/list-teams/list-teams.query';
import { SuccessResponse, TeamEnvelope, TeamList, TeamMemberEnvelope, TeamMemberList } from './teams.response';
import { ApiErrors } from '../../common/openapi/decorators';

/** `limit`, `offset` and the list shape options of every list route. */
const ListQueries = () =>
  applyDecorators(
    ApiQuery({ name: 'limit', required: false, description: 'Page size, default 25, at most 100 (larger values are clamped)' }),
    ApiQuery({ name: 'offset', required: false, description: 'Rows to skip, default 0' }),
    ApiQuery({
      name: 'shape',
      required: false,
      enum: ['envelope', 'legacy'],
      description: '`envelope` returns `{ resource, items, total, limit, offset, nextOffset, truncated, hint }`',
    }),
    ApiQuery({ name: 'response_shape', required: false, enum: ['cli', 'legacy'], description: 'Alias: `cli` = `shape=envelope`' }),
  );

/**
 * Teams: reads for every non-guest member (guests get 403: they must not see the organization's
 * structure); writes (team CRUD and team membership) for owners and admins only (403).
 */
@ApiTags('teams')
@ApiParam({ name: 'id', description: 'Organization id' })
@OrgScoped()
@Controller('api/orgs/:id/teams')
export class TeamsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @ApiOperation({ summary: 'List the teams of the organization (non-guests)' })
  @ListQueries()
  @ApiOkResponse({ type: TeamList, description: 'Legacy `{ teams, total, limit, offset }`, or the envelope with `shape=envelope`' })
  list(@CurrentActor() actor: Actor, @Query() query: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.queries.execute(new ListTeamsQuery(actor, parsePage(query)));
  }

  @Post()
  @ApiOperation({ summary: 'Create a team (owners and admins); the slug is derived from the name unless given' })
  @ApiCreatedResponse({ type: TeamEnvelope })
  @ApiErrors({ 409: '`team_slug_taken`: the slug is taken (or no free one could be derived)' })
  async create(@CurrentActor() actor: Actor, @Body() dto: CreateTeamDto): Promise<TeamEnvelope> {
    return { team: await this.commands.execute(new CreateTeamCommand(actor, { name: dto.name, slug: dto.slug, description: dto.description })) };
  }

  @Get(':teamId')
  @ApiOperation({ summary: 'One team (non-guests)' })
  @ApiOkResponse({ type: TeamEnvelope })
  async get(@CurrentActor() actor: Actor, @Param('teamId', UuidParamPipe) teamId: string): Promise<TeamEnvelope> {
    return { team: await this.queries.execute(new GetTeamQuery(actor, teamId)) };
  }

  @Patch(':teamId')
  @ApiOperation({ summary: 'Update name, slug or description (owners and admins); renaming keeps the slug' })
  @ApiOkResponse({ type: TeamEnvelope })
  @ApiErrors({ 409: '`team_slug_taken`: the slug is taken' })
  async update(@CurrentActor() actor: Actor, @Param('teamId', UuidParamPipe) teamId: string, @Body() dto: UpdateTeamDto): Promise<TeamEnvelope> {
    return { team: await this.commands.execute(new UpdateTeamCommand(actor, teamId, { name: dto.name, slug: dto.slug, description: dto.description })) };
  }

  @Delete(':teamId')
  @ApiOperation({ summary: 'Delete a team with its memberships and project assignments (owners and admins)' })
  @ApiOkResponse({ type: SuccessResponse })
  async remove(@CurrentActor() actor: Actor, @Param('teamId', UuidParamPipe) teamId: string): Promise<SuccessResponse> {
    await this.commands.execute(new DeleteTeamCommand(actor, teamId));
    return { success: true };
  }

  @Get(':teamId/members')
  @ApiOperation({ summary: 'List the active members of a team (non-guests)' })
  @ListQueries()
  @ApiOkResponse({ type: TeamMemberList, description: 'Legacy `{ members, total, limit, offset }`, or the envelope with `shape=envelope`' })
  members(
    @CurrentActor() actor: Actor,
    @Param('teamId', UuidParamPipe) teamId: string,
    @Query() query: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    return this.queries.execute(new ListTeamMembersQuery(actor, teamId, parsePage(query)));
  }

  @Post(':teamId/members')
  @ApiOperation({ summary: 'Add an active organization member to a team (owners and admins); 409 when already in it' })
  @ApiCreatedResponse({ type: TeamMemberEnvelope })
  @ApiErrors({ 409: '`already_team_member`: the member is already in the team' })
  async addMember(@CurrentActor() actor: Actor, @Param('teamId', UuidParamPipe) teamId: string, @Body() dto: AddTeamMemberDto): Promise<TeamMemberEnvelope> {
    const memberId = dto.memberId;
    if (!memberId) throw Errors.validation('memberId is required');
    return { member: await this.commands.execute(new AddTeamMemberCommand(actor, teamId, memberId.toLowerCase())) };
  }

  @Delete(':teamId/members/:memberId')
  @ApiOperation({ summary: 'Remove a member from a team (owners and admins)' })
  @ApiParam({ name: 'memberId', description: 'Organization member id' })
  @ApiOkResponse({ type: SuccessResponse })
  async removeMember(
    @CurrentActor() actor: Actor,
    @Param('teamId', UuidParamPipe) teamId: string,
    @Param('memberId', UuidParamPipe) memberId: string,
  ): Promise<SuccessResponse> {
    await this.commands.execute(new RemoveTeamMemberCommand(actor, teamId, memberId));
    return { success: true };
  }
}
