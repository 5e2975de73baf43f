import { Body, Controller, Get, Param, Post, Query, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentActor, OrgScoped } from '../../common/auth/decorators';
import type { Actor } from '../../common/auth/principal';
import { ApiErrors, ApiPagedList } from '../../common/openapi/decorators';
import { UuidParamPipe } from '../../common/http/validation';
import { AcknowledgeAttentionCommand } from './commands/acknowledge-attention/acknowledge-attention.command';
import { AcknowledgeAttentionDto } from './commands/acknowledge-attention/acknowledge-attention.dto';
import { AddEvidenceCommand } from './commands/add-evidence/add-evidence.command';
import { AddEvidenceDto } from './commands/add-evidence/add-evidence.dto';
import { CancelAttentionCommand } from './commands/cancel-attention/cancel-attention.command';
import { CancelAttentionDto } from './commands/cancel-attention/cancel-attention.dto';
import { CancelExecutionCommand } from './commands/cancel-execution/cancel-execution.command';
import { CancelExecutionDto } from './commands/cancel-execution/cancel-execution.dto';
import { CreateAttentionCommand } from './commands/create-attention/create-attention.command';
import { CreateAttentionDto } from './commands/create-attention/create-attention.dto';
import { CreateExecutionCommand } from './commands/create-execution/create-execution.command';
import { CreateExecutionDto } from './commands/create-execution/create-execution.dto';
import { ResolveAttentionCommand } from './commands/resolve-attention/resolve-attention.command';
import { ResolveAttentionDto } from './commands/resolve-attention/resolve-attention.dto';
import { TransitionExecutionCommand } from './commands/transition-execution/transition-execution.command';
import { TransitionExecutionDto } from './commands/transition-execution/transition-execution.dto';
import { AttentionEnvelope, AttentionListResponse, EvidenceEnvelope, ExecutionEnvelope, ExecutionListResponse } from './executions.response';
import type { Answer } from './idempotent-writes.service';
import { GetAttentionQuery } from './queries/get-attention/get-attention.query';
import { GetExecutionQuery } from './queries/get-execution/get-execution.query';
import { ListAttentionQuery } from './queries/list-attention/list-attention.query';
import { ListExecutionsQuery } from './queries/list-executions/list-executions.query';

const STATE_MACHINE = [
  'State machine (enforced in the database too): assigned → running | waiting | cancelled; running → waiting | completed | failed | cancelled;',
  'waiting → running (by the live requesting agent, version-fenced; consumes its unread resolved answers) | cancelled;',
  'needs_human is entered when an attention request is raised (from assigned, running or waiting) and left for waiting when it is resolved or cancelled,',
  'never by a generic transition (409 ATTENTION_CONTRACT_REQUIRED); completed, failed and cancelled are terminal (409 EXECUTION_TERMINAL).',
  'Other moves: 409 EXECUTION_TRANSITION_NOT_ALLOWED; stale expected_state_version: 409 STALE_STATE_VERSION; an idempotency_key reused with another body: 409 IDEMPOTENCY_KEY_REUSED.',
].join(' ');

/** Answers a keyed write with its original status. */
const send = async <T>(reply: FastifyReply, p: Promise<Answer<T>>): Promise<T> => {
  const a = await p;
  reply.status(a.status);
  return a.body;
};

/** Agent executions and their attention requests. See ExecutionsModule for who may do what. */
@ApiTags('agent-executions')
@ApiParam({ name: 'id', description: 'Organization id' })
@OrgScoped()
@Controller('api/orgs/:id')
export class ExecutionsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('agent-executions')
  @ApiOperation({ summary: 'List executions on readable issues; filters issue_id, state, agent_member_id; limit/offset; shape=envelope' })
  @ApiPagedList()
  @ApiOkResponse({ type: ExecutionListResponse })
  list(@CurrentActor() actor: Actor, @Query() query: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.queries.execute(new ListExecutionsQuery(actor, query));
  }

  @Post('agent-executions')
  @ApiOperation({ summary: 'Create an execution (edit on the issue; starts assigned). ' + STATE_MACHINE })
  @ApiCreatedResponse({
    type: ExecutionEnvelope,
    description: 'Created: `{ execution }`; an exact replay (same idempotency_key and body) answers the original status and body',
  })
  @ApiErrors({ 422: '`AGENT_MEMBER_INVALID`: agent_member_id is not a live agent that can read the issue' })
  create(@CurrentActor() actor: Actor, @Body() dto: CreateExecutionDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<ExecutionEnvelope> {
    return send(reply, this.commands.execute(new CreateExecutionCommand(actor, dto)));
  }

  @Get('agent-executions/:executionId')
  @ApiOperation({ summary: 'Execution detail with ordered transitions and evidence references' })
  @ApiOkResponse({ type: ExecutionEnvelope })
  get(@CurrentActor() actor: Actor, @Param('executionId', UuidParamPipe) executionId: string): Promise<ExecutionEnvelope> {
    return this.queries.execute(new GetExecutionQuery(actor, executionId));
  }

  @Post('agent-executions/:executionId/transitions')
  @ApiOperation({ summary: 'Version-fenced generic transition. ' + STATE_MACHINE })
  @ApiOkResponse({ type: ExecutionEnvelope })
  transition(
    @CurrentActor() actor: Actor,
    @Param('executionId', UuidParamPipe) executionId: string,
    @Body() dto: TransitionExecutionDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ExecutionEnvelope> {
    return send(reply, this.commands.execute(new TransitionExecutionCommand(actor, executionId, dto)));
  }

  @Post('agent-executions/:executionId/evidence')
  @ApiOperation({ summary: 'Add an evidence reference { link_type, target_id, idempotency_key } (edit)' })
  @ApiCreatedResponse({ type: EvidenceEnvelope, description: 'Created: `{ evidence }`; an exact replay answers the original status and body' })
  evidence(
    @CurrentActor() actor: Actor,
    @Param('executionId', UuidParamPipe) executionId: string,
    @Body() dto: AddEvidenceDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<EvidenceEnvelope> {
    return send(reply, this.commands.execute(new AddEvidenceCommand(actor, executionId, dto)));
  }

  @Post('agent-executions/:executionId/cancel')
  @ApiOperation({ summary: 'Cancel: any non-terminal state → cancelled; terminal 409 EXECUTION_TERMINAL' })
  @ApiOkResponse({ type: ExecutionEnvelope })
  cancel(
    @CurrentActor() actor: Actor,
    @Param('executionId', UuidParamPipe) executionId: string,
    @Body() dto: CancelExecutionDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ExecutionEnvelope> {
    return send(reply, this.commands.execute(new CancelExecutionCommand(actor, executionId, dto)));
  }

  @Get('agent-executions/:executionId/attention')
  @ApiOperation({ summary: 'Attention requests of the execution' })
  @ApiOkResponse({ type: AttentionListResponse })
  listAttention(@CurrentActor() actor: Actor, @Param('executionId', UuidParamPipe) executionId: string): Promise<AttentionListResponse> {
    return this.queries.execute(new ListAttentionQuery(actor, executionId));
  }

  @Post('agent-executions/:executionId/attention')
  @ApiOperation({ summary: "Raise an attention request (the execution's agent): the execution enters needs_human" })
  @ApiCreatedResponse({ type: AttentionEnvelope, description: 'Created: the attention item; an exact replay answers the original status and body' })
  raise(
    @CurrentActor() actor: Actor,
    @Param('executionId', UuidParamPipe) executionId: string,
    @Body() dto: CreateAttentionDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AttentionEnvelope> {
    return send(reply, this.commands.execute(new CreateAttentionCommand(actor, executionId, dto)));
  }

  @Get('attention-items/:itemId')
  @ApiOperation({ summary: 'One attention item' })
  @ApiOkResponse({ type: AttentionEnvelope })
  getAttention(@CurrentActor() actor: Actor, @Param('itemId', UuidParamPipe) itemId: string): Promise<AttentionEnvelope> {
    return this.queries.execute(new GetAttentionQuery(actor, itemId));
  }

  @Post('attention-items/:itemId/resolve')
  @ApiOperation({ summary: 'A human with edit access answers { answer, expected_version, idempotency_key? }; the execution returns to waiting' })
  @ApiOkResponse({ type: AttentionEnvelope })
  resolve(
    @CurrentActor() actor: Actor,
    @Param('itemId', UuidParamPipe) itemId: string,
    @Body() dto: ResolveAttentionDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AttentionEnvelope> {
    return send(reply, this.commands.execute(new ResolveAttentionCommand(actor, itemId, dto)));
  }

  @Post('attention-items/:itemId/cancel')
  @ApiOperation({ summary: 'The requesting agent withdraws its open request; the execution returns to waiting' })
  @ApiOkResponse({ type: AttentionEnvelope })
  cancelAttention(
    @CurrentActor() actor: Actor,
    @Param('itemId', UuidParamPipe) itemId: string,
    @Body() dto: CancelAttentionDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AttentionEnvelope> {
    return send(reply, this.commands.execute(new CancelAttentionCommand(actor, itemId, dto)));
  }

  @Post('attention-items/:itemId/acknowledge')
  @ApiOperation({ summary: "The requester's version-fenced receipt of a resolved answer; never resumes the execution" })
  @ApiOkResponse({ type: AttentionEnvelope })
  acknowledge(
    @CurrentActor() actor: Actor,
    @Param('itemId', UuidParamPipe) itemId: string,
    @Body() dto: AcknowledgeAttentionDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AttentionEnvelope> {
    return send(reply, this.commands.execute(new AcknowledgeAttentionCommand(actor, itemId, dto)));
  }
}
