import { Body, Controller, Delete, Get, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentActor, OrgScoped } from '../../common/auth/decorators';
import type { Actor } from '../../common/auth/principal';
import { UuidParamPipe } from '../../common/http/validation';
import { AddKpiImpactCommand } from './commands/add-kpi-impact/add-kpi-impact.command';
import { AddKpiImpactDto } from './commands/add-kpi-impact/add-kpi-impact.dto';
import { CreateInitiativeCommand } from './commands/create-initiative/create-initiative.command';
import { CreateInitiativeDto } from './commands/create-initiative/create-initiative.dto';
import { DeleteInitiativeCommand } from './commands/delete-initiative/delete-initiative.command';
import { LinkInitiativeIssueCommand } from './commands/link-initiative-issue/link-initiative-issue.command';
import { LinkInitiativeMilestoneCommand } from './commands/link-initiative-milestone/link-initiative-milestone.command';
import { LinkInitiativeProjectCommand } from './commands/link-initiative-project/link-initiative-project.command';
import { InitiativeProjectDto } from './commands/link-initiative-project/link-initiative-project.dto';
import { RemoveKpiImpactCommand } from './commands/remove-kpi-impact/remove-kpi-impact.command';
import { UnlinkInitiativeIssueCommand } from './commands/unlink-initiative-issue/unlink-initiative-issue.command';
import { UnlinkInitiativeMilestoneCommand } from './commands/unlink-initiative-milestone/unlink-initiative-milestone.command';
import { UnlinkInitiativeProjectCommand } from './commands/unlink-initiative-project/unlink-initiative-project.command';
import { UpdateInitiativeCommand } from './commands/update-initiative/update-initiative.command';
import { UpdateInitiativeDto } from './commands/update-initiative/update-initiative.dto';
import {
  InitiativeEnvelope,
  InitiativeIssueEnvelope,
  InitiativeIssueListResponse,
  InitiativeListResponse,
  InitiativeMilestoneEnvelope,
  InitiativeMilestoneListResponse,
  KpiImpactEnvelope,
  KpiImpactListResponse,
  SuccessResponse,
} from './initiatives.response';
import { ApiLinkErrors } from './link-errors.decorator';
import { IssueLinkDto, MilestoneLinkDto } from './links.dto';
import { GetInitiativeQuery } from './queries/get-initiative/get-initiative.query';
import { ListInitiativeIssuesQuery } from './queries/list-initiative-issues/list-initiative-issues.query';
import { ListInitiativeMilestonesQuery } from './queries/list-initiative-milestones/list-initiative-milestones.query';
import { ListInitiativesQuery } from './queries/list-initiatives/list-initiatives.query';
import { ListKpiImpactsQuery } from './queries/list-kpi-impacts/list-kpi-impacts.query';
import { ApiErrors, ApiPagedList } from '../../common/openapi/decorators';

type Status<T> = { status: number; body: T };

/** Initiatives and their project, KPI, issue and milestone links. See InitiativesModule for the rules. */
@ApiTags('initiatives')
@ApiParam({ name: 'id', description: 'Organization id' })
@OrgScoped()
@Controller('api/orgs/:id/initiatives')
export class InitiativesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @ApiOperation({ summary: 'List readable initiatives (?goal_id&status&owner_id&project_id, limit, offset, shape=envelope)' })
  @ApiQuery({ name: 'goal_id', required: false, description: 'Only initiatives of this goal' })
  @ApiQuery({ name: 'status', required: false, description: 'One status or a comma list' })
  @ApiQuery({ name: 'owner_id', required: false, description: 'Only initiatives owned by this member' })
  @ApiQuery({ name: 'project_id', required: false, description: 'Primary or linked project (unreadable: 404)' })
  @ApiOkResponse({ type: InitiativeListResponse })
  @ApiPagedList()
  list(@CurrentActor() actor: Actor, @Query() query: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.queries.execute(new ListInitiativesQuery(actor, query));
  }

  @Post()
  @ApiOperation({ summary: 'Create an initiative (edit on project_id; without it owners/admins only; guests must send project_id)' })
  @ApiCreatedResponse({ type: InitiativeEnvelope })
  create(@CurrentActor() actor: Actor, @Body() dto: CreateInitiativeDto): Promise<InitiativeEnvelope> {
    return this.commands.execute(new CreateInitiativeCommand(actor, dto));
  }

  @Get(':initiativeId')
  @ApiOperation({ summary: 'One initiative with its readable kpi_impacts' })
  @ApiOkResponse({ type: InitiativeEnvelope })
  get(@CurrentActor() actor: Actor, @Param('initiativeId', UuidParamPipe) initiativeId: string): Promise<InitiativeEnvelope> {
    return this.queries.execute(new GetInitiativeQuery(actor, initiativeId));
  }

  @Patch(':initiativeId')
  @ApiOperation({ summary: 'Update an initiative (edit on every linked project; organization-level: owners/admins)' })
  @ApiOkResponse({ type: InitiativeEnvelope })
  update(
    @CurrentActor() actor: Actor,
    @Param('initiativeId', UuidParamPipe) initiativeId: string,
    @Body() dto: UpdateInitiativeDto,
  ): Promise<InitiativeEnvelope> {
    return this.commands.execute(new UpdateInitiativeCommand(actor, initiativeId, dto));
  }

  @Delete(':initiativeId')
  @ApiOperation({ summary: 'Delete an initiative, its links and targets (same rule as update)' })
  @ApiOkResponse({ type: SuccessResponse })
  remove(@CurrentActor() actor: Actor, @Param('initiativeId', UuidParamPipe) initiativeId: string): Promise<SuccessResponse> {
    return this.commands.execute(new DeleteInitiativeCommand(actor, initiativeId));
  }

  @Post(':initiativeId/projects')
  @ApiOperation({ summary: 'Link a project { project_id } (edit on it and on every linked project); already linked: 200' })
  @ApiCreatedResponse({ type: InitiativeEnvelope })
  @ApiOkResponse({ type: InitiativeEnvelope, description: 'Already linked' })
  @ApiLinkErrors('project')
  async linkProject(
    @CurrentActor() actor: Actor,
    @Param('initiativeId', UuidParamPipe) initiativeId: string,
    @Body() dto: InitiativeProjectDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<InitiativeEnvelope> {
    const r: Status<InitiativeEnvelope> = await this.commands.execute(new LinkInitiativeProjectCommand(actor, initiativeId, dto));
    reply.status(r.status);
    return r.body;
  }

  @Delete(':initiativeId/projects')
  @ApiOperation({ summary: 'Unlink a project { project_id } (body, or ?project_id=)' })
  @ApiQuery({ name: 'project_id', required: false })
  @ApiOkResponse({ type: SuccessResponse })
  unlinkProject(
    @CurrentActor() actor: Actor,
    @Param('initiativeId', UuidParamPipe) initiativeId: string,
    @Body() dto: InitiativeProjectDto,
    @Query('project_id') queryProjectId?: string,
  ): Promise<SuccessResponse> {
    const projectId = dto?.project_id ?? queryProjectId;
    return this.commands.execute(new UnlinkInitiativeProjectCommand(actor, initiativeId, projectId));
  }

  @Get(':initiativeId/kpi-impacts')
  @ApiOperation({ summary: 'KPI impact links of the initiative (readable KPIs only)' })
  @ApiOkResponse({ type: KpiImpactListResponse })
  listImpacts(@CurrentActor() actor: Actor, @Param('initiativeId', UuidParamPipe) initiativeId: string): Promise<KpiImpactListResponse> {
    return this.queries.execute(new ListKpiImpactsQuery(actor, initiativeId));
  }

  @Post(':initiativeId/kpi-impacts')
  @ApiOperation({ summary: 'Link a KPI the initiative is expected to move { kpi_id, expected_impact? }; a second link to the same KPI: 409 kpi_impact_exists' })
  @ApiCreatedResponse({ type: KpiImpactEnvelope })
  @ApiLinkErrors('kpi')
  @ApiErrors({ 409: '`kpi_impact_exists` (with `kpi_impact_id`): the KPI is already linked' })
  addImpact(
    @CurrentActor() actor: Actor,
    @Param('initiativeId', UuidParamPipe) initiativeId: string,
    @Body() dto: AddKpiImpactDto,
  ): Promise<KpiImpactEnvelope> {
    return this.commands.execute(new AddKpiImpactCommand(actor, initiativeId, dto));
  }

  @Delete(':initiativeId/kpi-impacts/:impactId')
  @ApiOperation({ summary: 'Remove a KPI impact link' })
  @ApiOkResponse({ type: SuccessResponse })
  removeImpact(
    @CurrentActor() actor: Actor,
    @Param('initiativeId', UuidParamPipe) initiativeId: string,
    @Param('impactId', UuidParamPipe) impactId: string,
  ): Promise<SuccessResponse> {
    return this.commands.execute(new RemoveKpiImpactCommand(actor, initiativeId, impactId));
  }

  @Get(':initiativeId/issues')
  @ApiOperation({ summary: 'Issue links of the initiative (readable issues only); ?details=1 adds the issue projection' })
  @ApiQuery({ name: 'details', required: false, description: '`1` or `true`' })
  @ApiOkResponse({ type: InitiativeIssueListResponse })
  listIssues(
    @CurrentActor() actor: Actor,
    @Param('initiativeId', UuidParamPipe) initiativeId: string,
    @Query('details') details?: string,
  ): Promise<InitiativeIssueListResponse> {
    return this.queries.execute(new ListInitiativeIssuesQuery(actor, initiativeId, details === '1' || details === 'true'));
  }

  @Post(':initiativeId/issues')
  @ApiOperation({ summary: 'Link an issue { issue_id } in any reference form; the canonical UUID is stored; already linked: 200' })
  @ApiCreatedResponse({ type: InitiativeIssueEnvelope })
  @ApiOkResponse({ type: InitiativeIssueEnvelope, description: 'Already linked' })
  @ApiLinkErrors('issue')
  @ApiErrors({ 409: '`ambiguous_reference`: the issue reference matches several readable issues' })
  async linkIssue(
    @CurrentActor() actor: Actor,
    @Param('initiativeId', UuidParamPipe) initiativeId: string,
    @Body() dto: IssueLinkDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<InitiativeIssueEnvelope> {
    const r: Status<InitiativeIssueEnvelope> = await this.commands.execute(new LinkInitiativeIssueCommand(actor, initiativeId, dto));
    reply.status(r.status);
    return r.body;
  }

  @Delete(':initiativeId/issues/:issueId')
  @ApiOperation({ summary: 'Unlink an issue (by UUID)' })
  @ApiOkResponse({ type: SuccessResponse })
  unlinkIssue(
    @CurrentActor() actor: Actor,
    @Param('initiativeId', UuidParamPipe) initiativeId: string,
    @Param('issueId', UuidParamPipe) issueId: string,
  ): Promise<SuccessResponse> {
    return this.commands.execute(new UnlinkInitiativeIssueCommand(actor, initiativeId, issueId));
  }

  @Get(':initiativeId/milestones')
  @ApiOperation({ summary: 'Milestone links of the initiative (readable milestone projects only)' })
  @ApiOkResponse({ type: InitiativeMilestoneListResponse })
  listMilestones(@CurrentActor() actor: Actor, @Param('initiativeId', UuidParamPipe) initiativeId: string): Promise<InitiativeMilestoneListResponse> {
    return this.queries.execute(new ListInitiativeMilestonesQuery(actor, initiativeId));
  }

  @Post(':initiativeId/milestones')
  @ApiOperation({ summary: 'Link a milestone { milestone_id } by UUID or exact name (ambiguous: 409); already linked: 200' })
  @ApiCreatedResponse({ type: InitiativeMilestoneEnvelope })
  @ApiOkResponse({ type: InitiativeMilestoneEnvelope, description: 'Already linked' })
  @ApiLinkErrors('milestone')
  @ApiErrors({ 409: '`ambiguous_milestone`: the milestone name matches several milestones' })
  async linkMilestone(
    @CurrentActor() actor: Actor,
    @Param('initiativeId', UuidParamPipe) initiativeId: string,
    @Body() dto: MilestoneLinkDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<InitiativeMilestoneEnvelope> {
    const r: Status<InitiativeMilestoneEnvelope> = await this.commands.execute(new LinkInitiativeMilestoneCommand(actor, initiativeId, dto));
    reply.status(r.status);
    return r.body;
  }

  @Delete(':initiativeId/milestones/:milestoneId')
  @ApiOperation({ summary: 'Unlink a milestone (by UUID)' })
  @ApiOkResponse({ type: SuccessResponse })
  unlinkMilestone(
    @CurrentActor() actor: Actor,
    @Param('initiativeId', UuidParamPipe) initiativeId: string,
    @Param('milestoneId', UuidParamPipe) milestoneId: string,
  ): Promise<SuccessResponse> {
    return this.commands.execute(new UnlinkInitiativeMilestoneCommand(actor, initiativeId, milestoneId));
  }
}
