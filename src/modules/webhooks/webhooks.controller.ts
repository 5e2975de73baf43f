import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiAcceptedResponse, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CurrentActor, OrgScoped } from '../../common/auth/decorators';
import type { Actor } from '../../common/auth/principal';
import { parsePage } from '../../common/http/list';
import { UuidParamPipe } from '../../common/http/validation';
import { CreateWebhookCommand } from './commands/create-webhook/create-webhook.command';
import { CreateWebhookDto } from './commands/create-webhook/create-webhook.dto';
import { DeleteWebhookCommand } from './commands/delete-webhook/delete-webhook.command';
import { RedeliverWebhookCommand } from './commands/redeliver-webhook/redeliver-webhook.command';
import { TestWebhookCommand } from './commands/test-webhook/test-webhook.command';
import { UpdateWebhookCommand } from './commands/update-webhook/update-webhook.command';
import { UpdateWebhookDto } from './commands/update-webhook/update-webhook.dto';
import { ListWebhookDeliveriesQuery } from './queries/list-webhook-deliveries/list-webhook-deliveries.query';
import { ListWebhooksQuery } from './queries/list-webhooks/list-webhooks.query';
import { MAX_HISTORY } from './webhooks.constants';
import { SuccessResponse, WebhookCreatedEnvelope, WebhookDeliveryEnvelope, WebhookDeliveryList, WebhookEnvelope, WebhookList } from './webhooks.response';
import { ApiErrors, ApiPagedList } from '../../common/openapi/decorators';

const ADMIN = 'Organization owners and admins (humans, or agents with that role); other members 403, non-members 404.';

/** Outbound webhook destinations of an organization (see WebhooksModule). */
@ApiTags('webhooks')
@Controller('api/webhooks')
export class WebhooksController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @OrgScoped({ from: 'query', key: 'orgId' })
  @ApiOperation({ summary: 'List webhooks (redacted: origin only, secrets as `configured` flags)', description: ADMIN })
  @ApiQuery({ name: 'orgId', required: true })
  @ApiOkResponse({ type: WebhookList })
  @ApiPagedList({ defaultLimit: 100 })
  list(@CurrentActor() actor: Actor, @Query() query: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.queries.execute(new ListWebhooksQuery(actor, parsePage(query, { defaultLimit: 100 })));
  }

  @Post()
  @OrgScoped({ from: 'query', key: 'orgId' })
  @ApiOperation({ summary: 'Create a webhook; the signing `secret` is returned once', description: ADMIN })
  @ApiQuery({ name: 'orgId', required: true })
  @ApiCreatedResponse({ type: WebhookCreatedEnvelope })
  @ApiErrors({ 422: '`webhook_limit_reached` (with `limit`, `usage`): the organization has the most webhooks allowed; delete one first' })
  create(@CurrentActor() actor: Actor, @Body() dto: CreateWebhookDto): Promise<WebhookCreatedEnvelope> {
    return this.commands.execute(new CreateWebhookCommand(actor, dto));
  }

  @Patch(':id')
  @OrgScoped({ from: 'param', key: 'id', via: 'webhooks' })
  @ApiOperation({ summary: 'Update url, events, enabled, purpose, auth, standard_webhooks (omitted fields kept)', description: ADMIN })
  @ApiParam({ name: 'id', description: 'Webhook id' })
  @ApiOkResponse({ type: WebhookEnvelope })
  update(@CurrentActor() actor: Actor, @Param('id', UuidParamPipe) id: string, @Body() dto: UpdateWebhookDto): Promise<WebhookEnvelope> {
    return this.commands.execute(new UpdateWebhookCommand(actor, id, dto));
  }

  @Delete(':id')
  @OrgScoped({ from: 'param', key: 'id', via: 'webhooks' })
  @ApiOperation({ summary: 'Delete a webhook with its delivery history', description: ADMIN })
  @ApiParam({ name: 'id', description: 'Webhook id' })
  @ApiOkResponse({ type: SuccessResponse })
  delete(@CurrentActor() actor: Actor, @Param('id', UuidParamPipe) id: string): Promise<SuccessResponse> {
    return this.commands.execute(new DeleteWebhookCommand(actor, id));
  }

  @Get(':id/deliveries')
  @OrgScoped({ from: 'param', key: 'id', via: 'webhooks' })
  @ApiOperation({
    summary: 'Recent deliveries, newest first (at most 100; `limit`, default 50): status, codes, times; never payloads or responses',
    description: ADMIN,
  })
  @ApiParam({ name: 'id', description: 'Webhook id' })
  @ApiQuery({ name: 'limit', required: false })
  @ApiOkResponse({ type: WebhookDeliveryList })
  deliveries(@CurrentActor() actor: Actor, @Param('id', UuidParamPipe) id: string, @Query() query: Record<string, unknown>): Promise<WebhookDeliveryList> {
    return this.queries.execute(
      new ListWebhookDeliveriesQuery(actor, id, parsePage({ limit: query.limit }, { defaultLimit: 50, maxLimit: MAX_HISTORY }).limit),
    );
  }

  @Post(':id/redeliver/:deliveryId')
  @HttpCode(202)
  @OrgScoped({ from: 'param', key: 'id', via: 'webhooks' })
  @ApiOperation({
    summary: 'Redeliver a past payload as a new delivery (new delivery id and idempotency key, current signing configuration)',
    description: ADMIN,
  })
  @ApiParam({ name: 'id', description: 'Webhook id' })
  @ApiParam({ name: 'deliveryId', description: 'Delivery record `id` (or its `delivery_id`)' })
  @ApiAcceptedResponse({ type: WebhookDeliveryEnvelope })
  redeliver(@CurrentActor() actor: Actor, @Param('id', UuidParamPipe) id: string, @Param('deliveryId') deliveryId: string): Promise<WebhookDeliveryEnvelope> {
    return this.commands.execute(new RedeliverWebhookCommand(actor, id, deliveryId));
  }

  @Post(':id/test')
  @HttpCode(202)
  @OrgScoped({ from: 'param', key: 'id', via: 'webhooks' })
  @ApiOperation({ summary: 'Send a signed `ping` event (schema version 2)', description: ADMIN })
  @ApiParam({ name: 'id', description: 'Webhook id' })
  @ApiAcceptedResponse({ type: WebhookDeliveryEnvelope })
  test(@CurrentActor() actor: Actor, @Param('id', UuidParamPipe) id: string): Promise<WebhookDeliveryEnvelope> {
    return this.commands.execute(new TestWebhookCommand(actor, id));
  }
}
