import { Body, Controller, Delete, Get, Param, Patch, Post, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentActor, OrgScoped } from '../../common/auth/decorators';
import type { Actor } from '../../common/auth/principal';
import { UuidParamPipe } from '../../common/http/validation';
import { CreateTargetCommand } from './commands/create-target/create-target.command';
import { CreateTargetDto } from './commands/create-target/create-target.dto';
import { DeleteTargetCommand } from './commands/delete-target/delete-target.command';
import { LinkTargetIssueCommand } from './commands/link-target-issue/link-target-issue.command';
import { LinkTargetMilestoneCommand } from './commands/link-target-milestone/link-target-milestone.command';
import { UnlinkTargetIssueCommand } from './commands/unlink-target-issue/unlink-target-issue.command';
import { UnlinkTargetMilestoneCommand } from './commands/unlink-target-milestone/unlink-target-milestone.command';
import { UpdateTargetCommand } from './commands/update-target/update-target.command';
import { UpdateTargetDto } from './commands/update-target/update-target.dto';
import { SuccessResponse } from './initiatives.response';
import { ApiLinkErrors } from './link-errors.decorator';
import { IssueLinkDto, MilestoneLinkDto } from './links.dto';
import { GetTargetQuery } from './queries/get-target/get-target.query';
import { ListTargetIssuesQuery } from './queries/list-target-issues/list-target-issues.query';
import { ListTargetMilestonesQuery } from './queries/list-target-milestones/list-target-milestones.query';
import { ListTargetsQuery } from './queries/list-targets/list-targets.query';
import {
  TargetEnvelope,
  TargetIssueEnvelope,
  TargetIssueListResponse,
  TargetListResponse,
  TargetMilestoneEnvelope,
  TargetMilestoneListResponse,
} from './targets.response';
import { ApiErrors } from '../../common/openapi/decorators';

type Status<T> = { status: number; body: T };

/** Initiative targets and their issue and milestone links. See InitiativesModule for the rules. */
@ApiTags('initiatives')
@ApiParam({ name: 'id', description: 'Organization id' })
@OrgScoped()
@Controller('api/orgs/:id/initiatives/:initiativeId/targets')
export class InitiativeTargetsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Targets of the initiative whose typed scope the caller can read; link ids filtered to readable resources' })
  @ApiOkResponse({ type: TargetListResponse })
  list(@CurrentActor() actor: Actor, @Param('initiativeId', UuidParamPipe) initiativeId: string): Promise<TargetListResponse> {
    return this.queries.execute(new ListTargetsQuery(actor, initiativeId));
  }

  @Post()
  @ApiOperation({ summary: 'Create a target (edit/admin on every project linked to the initiative; projectless initiative: owners/admins)' })
  @ApiCreatedResponse({ type: TargetEnvelope })
  create(@CurrentActor() actor: Actor, @Param('initiativeId', UuidParamPipe) initiativeId: string, @Body() dto: CreateTargetDto): Promise<TargetEnvelope> {
    return this.commands.execute(new CreateTargetCommand(actor, initiativeId, dto));
  }

  @Get(':targetId')
  @ApiOperation({ summary: 'One target (read access to its typed scope; otherwise 404)' })
  @ApiOkResponse({ type: TargetEnvelope })
  get(
    @CurrentActor() actor: Actor,
    @Param('initiativeId', UuidParamPipe) initiativeId: string,
    @Param('targetId', UuidParamPipe) targetId: string,
  ): Promise<TargetEnvelope> {
    return this.queries.execute(new GetTargetQuery(actor, initiativeId, targetId));
  }

  @Patch(':targetId')
  @ApiOperation({ summary: 'Update a target (edit/admin on every project in its typed scope); only given fields change, null clears' })
  @ApiOkResponse({ type: TargetEnvelope })
  update(
    @CurrentActor() actor: Actor,
    @Param('initiativeId', UuidParamPipe) initiativeId: string,
    @Param('targetId', UuidParamPipe) targetId: string,
    @Body() dto: UpdateTargetDto,
  ): Promise<TargetEnvelope> {
    return this.commands.execute(new UpdateTargetCommand(actor, initiativeId, targetId, dto));
  }

  @Delete(':targetId')
  @ApiOperation({ summary: 'Delete a target and its links (edit/admin on every project in its typed scope)' })
  @ApiOkResponse({ type: SuccessResponse })
  remove(
    @CurrentActor() actor: Actor,
    @Param('initiativeId', UuidParamPipe) initiativeId: string,
    @Param('targetId', UuidParamPipe) targetId: string,
  ): Promise<SuccessResponse> {
    return this.commands.execute(new DeleteTargetCommand(actor, initiativeId, targetId));
  }

  @Get(':targetId/issues')
  @ApiOperation({ summary: 'Issue links of the target (readable issues only, projectless ones for non-guests)' })
  @ApiOkResponse({ type: TargetIssueListResponse })
  listIssues(
    @CurrentActor() actor: Actor,
    @Param('initiativeId', UuidParamPipe) initiativeId: string,
    @Param('targetId', UuidParamPipe) targetId: string,
  ): Promise<TargetIssueListResponse> {
    return this.queries.execute(new ListTargetIssuesQuery(actor, initiativeId, targetId));
  }

  @Post(':targetId/issues')
  @ApiOperation({ summary: 'Link an issue { issue_id } in any reference form (target authorized first); already linked: 200' })
  @ApiCreatedResponse({ type: TargetIssueEnvelope })
  @ApiOkResponse({ type: TargetIssueEnvelope, description: 'Already linked' })
  @ApiLinkErrors('issue')
  @ApiErrors({ 409: '`ambiguous_reference`: the issue reference matches several readable issues' })
  async linkIssue(
    @CurrentActor() actor: Actor,
    @Param('initiativeId', UuidParamPipe) initiativeId: string,
    @Param('targetId', UuidParamPipe) targetId: string,
    @Body() dto: IssueLinkDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<TargetIssueEnvelope> {
    const r: Status<TargetIssueEnvelope> = await this.commands.execute(new LinkTargetIssueCommand(actor, initiativeId, targetId, dto));
    reply.status(r.status);
    return r.body;
  }

  @Delete(':targetId/issues/:issueId')
  @ApiOperation({ summary: 'Unlink an issue (by UUID; same rules as the link)' })
  @ApiOkResponse({ type: SuccessResponse })
  unlinkIssue(
    @CurrentActor() actor: Actor,
    @Param('initiativeId', UuidParamPipe) initiativeId: string,
    @Param('targetId', UuidParamPipe) targetId: string,
    @Param('issueId', UuidParamPipe) issueId: string,
  ): Promise<SuccessResponse> {
    return this.commands.execute(new UnlinkTargetIssueCommand(actor, initiativeId, targetId, issueId));
  }

  @Get(':targetId/milestones')
  @ApiOperation({ summary: 'Milestone links of the target (readable milestone projects only)' })
  @ApiOkResponse({ type: TargetMilestoneListResponse })
  listMilestones(
    @CurrentActor() actor: Actor,
    @Param('initiativeId', UuidParamPipe) initiativeId: string,
    @Param('targetId', UuidParamPipe) targetId: string,
  ): Promise<TargetMilestoneListResponse> {
    return this.queries.execute(new ListTargetMilestonesQuery(actor, initiativeId, targetId));
  }

  @Post(':targetId/milestones')
  @ApiOperation({ summary: 'Link a milestone { milestone_id } by UUID or exact name; its project must be linked to the initiative; already linked: 200' })
  @ApiCreatedResponse({ type: TargetMilestoneEnvelope })
  @ApiOkResponse({ type: TargetMilestoneEnvelope, description: 'Already linked' })
  @ApiLinkErrors('milestone')
  @ApiErrors({ 409: '`ambiguous_milestone`: the milestone name matches several milestones' })
  async linkMilestone(
    @CurrentActor() actor: Actor,
    @Param('initiativeId', UuidParamPipe) initiativeId: string,
    @Param('targetId', UuidParamPipe) targetId: string,
    @Body() dto: MilestoneLinkDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<TargetMilestoneEnvelope> {
    const r: Status<TargetMilestoneEnvelope> = await this.commands.execute(new LinkTargetMilestoneCommand(actor, initiativeId, targetId, dto));
    reply.status(r.status);
    return r.body;
  }

  @Delete(':targetId/milestones/:milestoneId')
  @ApiOperation({ summary: 'Unlink a milestone (by UUID; same rules as the link)' })
  @ApiOkResponse({ type: SuccessResponse })
  unlinkMilestone(
    @CurrentActor() actor: Actor,
    @Param('initiativeId', UuidParamPipe) initiativeId: string,
    @Param('targetId', UuidParamPipe) targetId: string,
    @Param('milestoneId', UuidParamPipe) milestoneId: string,
  ): Promise<SuccessResponse> {
    return this.commands.execute(new UnlinkTargetMilestoneCommand(actor, initiativeId, targetId, milestoneId));
  }
}
