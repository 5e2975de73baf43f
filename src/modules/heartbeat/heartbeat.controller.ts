import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiParam, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { ApiErrors } from '../../common/openapi/decorators';
import { CurrentActor, OrgScoped } from '../../common/auth/decorators';
import type { Actor } from '../../common/auth/principal';
import { serializeOnce } from '../../common/http/serialize-once';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AckHeartbeatCommand } from './commands/ack-heartbeat/ack-heartbeat.command';
import { DeleteHeartbeatPolicyCommand } from './commands/delete-heartbeat-policy/delete-heartbeat-policy.command';
import { PutHeartbeatPolicyCommand } from './commands/put-heartbeat-policy/put-heartbeat-policy.command';
import {
  HeartbeatAckResponse,
  HeartbeatCompactResponse,
  HeartbeatFullResponse,
  HeartbeatPolicyResponse,
  HeartbeatPreviewResponse,
  HeartbeatSuccessResponse,
} from './heartbeat.response';
import { GetHeartbeatQuery } from './queries/get-heartbeat/get-heartbeat.query';
import { GetHeartbeatPolicyQuery } from './queries/get-heartbeat-policy/get-heartbeat-policy.query';
import { PreviewHeartbeatQuery } from './queries/preview-heartbeat/preview-heartbeat.query';

/** The agent heartbeat and its per-agent policy. See HeartbeatModule for the rules. */
@ApiTags('heartbeat')
@ApiExtraModels(HeartbeatCompactResponse, HeartbeatFullResponse)
@ApiParam({ name: 'id', description: 'Organization id' })
@OrgScoped()
@Controller('api/orgs/:id')
export class HeartbeatController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('heartbeat')
  @ApiOperation({
    summary: "The caller's briefing: compact envelope (default; paged with cursor, since, max_bytes ≤ 16384) or view=full (legacy)",
    description:
      'Compact: attention_items, attention_summary, signal_groups (id, type, category, severity, message, metadata; dependency groups add blocker, release_condition, issues; suggested_read where present), recommended_action, counts, delta, page, execution_attention. At most 16,384 UTF-8 bytes and 25 items per page jointly. Invalid cursor 400; stale page cursor or unacknowledged since cursor 409 heartbeat_cursor_stale; max_bytes too small 413 heartbeat_budget_too_small. view=full cannot combine with since or cursor (400).',
  })
  @ApiOkResponse({
    description: 'The compact envelope or the legacy full briefing (`view=full`)',
    schema: { anyOf: [{ $ref: getSchemaPath(HeartbeatCompactResponse) }, { $ref: getSchemaPath(HeartbeatFullResponse) }] },
  })
  @ApiErrors({
    409: '`heartbeat_cursor_stale`: the page cursor is stale, or the `since` cursor was not acknowledged',
    413: '`heartbeat_budget_too_small`: `max_bytes` cannot hold the envelope and the first item',
  })
  get(
    @CurrentActor() actor: Actor,
    @Query() query: Record<string, unknown>,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown>> {
    // a kept full view or first page is the same response object again: its JSON (and gzip) bytes are made once
    serializeOnce(req, reply);
    return this.queries.execute(new GetHeartbeatQuery(actor, query));
  }

  @Post('heartbeat/ack')
  @HttpCode(200)
  @ApiOperation({ summary: "Acknowledge a complete compact run with the terminal page's ack_cursor { cursor }; idempotent" })
  @ApiOkResponse({ type: HeartbeatAckResponse })
  @ApiErrors({ 409: '`heartbeat_cursor_stale`: the run is no longer the current one' })
  ack(@CurrentActor() actor: Actor, @Body() body: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.commands.execute(new AckHeartbeatCommand(actor, body ?? {}));
  }

  @Get('agents/:agentId/heartbeat-policy')
  @ApiOperation({
    summary: 'Saved and effective heartbeat policy of an agent, selectable projects, initiatives and columns, stale selections (humans who manage the agent)',
  })
  @ApiOkResponse({ type: HeartbeatPolicyResponse })
  getPolicy(@CurrentActor() actor: Actor, @Param('agentId') agentId: string): Promise<Record<string, unknown>> {
    return this.queries.execute(new GetHeartbeatPolicyQuery(actor, agentId));
  }

  @Put('agents/:agentId/heartbeat-policy')
  @ApiOperation({ summary: 'Replace the whole heartbeat policy { policy: { sections, signal_categories, project_ids, initiative_ids, columns } }' })
  @ApiOkResponse({ type: HeartbeatPolicyResponse })
  putPolicy(@CurrentActor() actor: Actor, @Param('agentId') agentId: string, @Body() body: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.commands.execute(new PutHeartbeatPolicyCommand(actor, agentId, body ?? {}));
  }

  @Delete('agents/:agentId/heartbeat-policy')
  @ApiOperation({ summary: 'Restore the default heartbeat behaviour of an agent' })
  @ApiOkResponse({ type: HeartbeatSuccessResponse })
  deletePolicy(@CurrentActor() actor: Actor, @Param('agentId') agentId: string): Promise<Record<string, unknown>> {
    return this.commands.execute(new DeleteHeartbeatPolicyCommand(actor, agentId));
  }

  @Post('agents/:agentId/heartbeat-preview')
  @HttpCode(200)
  @ApiOperation({ summary: 'Compose the heartbeat as the agent with { policy } (a draft) or {} (the saved policy); nothing is persisted' })
  @ApiOkResponse({ type: HeartbeatPreviewResponse })
  preview(
    @CurrentActor() actor: Actor,
    @Param('agentId') agentId: string,
    @Body() body: Record<string, unknown>,
    @Query('view') view: unknown,
  ): Promise<Record<string, unknown>> {
    return this.queries.execute(new PreviewHeartbeatQuery(actor, agentId, body ?? {}, view));
  }
}
