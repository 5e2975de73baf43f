import { Body, Controller, Delete, Get, Param, Patch, Post, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentActor, OrgScoped } from '../../common/auth/decorators';
import type { Actor } from '../../common/auth/principal';
import { IssueAddressed } from '../../common/http/issue-reference';
import { UuidParamPipe } from '../../common/http/validation';
import { CreateSubtaskCommand } from './commands/create-subtask/create-subtask.command';
import { CreateSubtaskDto } from './commands/create-subtask/create-subtask.dto';
import type { CreateSubtaskResult } from './commands/create-subtask/create-subtask.handler';
import { DetachSubtaskCommand } from './commands/detach-subtask/detach-subtask.command';
import { UpdateSubtaskCommand } from './commands/update-subtask/update-subtask.command';
import { UpdateSubtaskDto } from './commands/update-subtask/update-subtask.dto';
import { ListSubtasksQuery } from './queries/list-subtasks/list-subtasks.query';
import { SubtaskDetachedResponse, SubtaskEnvelope, SubtaskListResponse } from './subtasks.response';
import { ApiErrors } from '../../common/openapi/decorators';

/** Subtasks: child issues of an issue. See SubtasksModule for the rules. */
@ApiTags('issues')
@ApiParam({ name: 'id', description: 'Organization id' })
@IssueAddressed()
@OrgScoped()
@Controller('api/orgs/:id/issues/:issueId/subtasks')
export class SubtasksController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Readable subtasks of the issue (issue read)' })
  @ApiOkResponse({ type: SubtaskListResponse })
  list(@CurrentActor() actor: Actor, @Param('issueId', UuidParamPipe) issueId: string): Promise<SubtaskListResponse> {
    return this.queries.execute(new ListSubtasksQuery(actor, issueId));
  }

  @Post()
  @ApiOperation({
    summary: 'Create a subtask { title, … } in the parent’s project (201), or attach an existing issue { issueId } (200)',
    description: 'Edit access on the parent (and on the attached issue). Subtasks nest at most 5 levels; cycles are 400.',
  })
  @ApiCreatedResponse({ type: SubtaskEnvelope })
  @ApiOkResponse({ type: SubtaskEnvelope, description: 'Existing issue attached' })
  @ApiErrors(402)
  async create(
    @CurrentActor() actor: Actor,
    @Param('issueId', UuidParamPipe) issueId: string,
    @Body() dto: CreateSubtaskDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SubtaskEnvelope> {
    const r: CreateSubtaskResult = await this.commands.execute(new CreateSubtaskCommand(actor, issueId, dto));
    reply.status(r.created ? 201 : 200);
    return { subtask: r.record, issue: r.record };
  }

  @Patch(':subtaskId')
  @ApiOperation({ summary: 'Update a subtask: title, description, status, priority, assignees, dates (edit on the subtask)' })
  @ApiOkResponse({ type: SubtaskEnvelope })
  @ApiErrors(402)
  update(
    @CurrentActor() actor: Actor,
    @Param('issueId', UuidParamPipe) issueId: string,
    @Param('subtaskId', UuidParamPipe) subtaskId: string,
    @Body() dto: UpdateSubtaskDto,
  ): Promise<SubtaskEnvelope> {
    return this.commands.execute(new UpdateSubtaskCommand(actor, issueId, subtaskId, dto));
  }

  @Delete(':subtaskId')
  @ApiOperation({ summary: 'Detach a subtask: it stays as a top-level issue (edit on the subtask)' })
  @ApiOkResponse({ type: SubtaskDetachedResponse })
  remove(
    @CurrentActor() actor: Actor,
    @Param('issueId', UuidParamPipe) issueId: string,
    @Param('subtaskId', UuidParamPipe) subtaskId: string,
  ): Promise<SubtaskDetachedResponse> {
    return this.commands.execute(new DetachSubtaskCommand(actor, issueId, subtaskId));
  }
}
