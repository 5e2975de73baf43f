import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CurrentActor, OrgScoped } from '../../common/auth/decorators';
import { Actor } from '../../common/auth/principal';
import { AckNotificationCommand } from './commands/ack-notification/ack-notification.command';
import { UpdateNotificationPreferencesCommand } from './commands/update-notification-preferences/update-notification-preferences.command';
import { UpdateNotificationPreferencesDto } from './commands/update-notification-preferences/update-notification-preferences.dto';
import {
  NotificationAckEnvelope,
  NotificationListResponse,
  NotificationPreferencesResponse,
  NotificationPreferencesUpdateResponse,
} from './notifications.response';
import { GetNotificationPreferencesQuery } from './queries/get-notification-preferences/get-notification-preferences.query';
import { ListNotificationsQuery } from './queries/list-notifications/list-notifications.query';

@ApiTags('notifications')
@ApiParam({ name: 'id', description: 'Organization id' })
@OrgScoped()
@Controller('api/orgs/:id/notifications')
export class NotificationsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @ApiOperation({ summary: "The caller's unread notifications about things it can still read, newest first" })
  @ApiQuery({ name: 'limit', required: false, description: 'Page size, default 25, max 100 (clamped)' })
  @ApiQuery({ name: 'offset', required: false, description: 'Items to skip, default 0' })
  @ApiQuery({
    name: 'shape',
    required: false,
    enum: ['envelope', 'legacy'],
    description: '`envelope` for { resource, items, total, limit, offset, nextOffset, truncated, hint }',
  })
  @ApiOkResponse({ type: NotificationListResponse })
  list(@CurrentActor() actor: Actor, @Query() query: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.queries.execute(new ListNotificationsQuery(actor, query));
  }

  @Get('preferences')
  @ApiOperation({ summary: "The caller's notification switches per channel and event type (on by default)" })
  @ApiOkResponse({ type: NotificationPreferencesResponse })
  preferences(@CurrentActor() actor: Actor): Promise<NotificationPreferencesResponse> {
    return this.queries.execute(new GetNotificationPreferencesQuery(actor));
  }

  @Post('preferences')
  @HttpCode(200)
  @ApiOperation({ summary: 'Set notification switches; muting in-app mentions acknowledges unread mention notifications' })
  @ApiOkResponse({ type: NotificationPreferencesUpdateResponse })
  @ApiBadRequestResponse({ description: 'Unknown channel or event type, or enabled not a boolean' })
  setPreferences(@CurrentActor() actor: Actor, @Body() dto: UpdateNotificationPreferencesDto): Promise<NotificationPreferencesUpdateResponse> {
    return this.commands.execute(new UpdateNotificationPreferencesCommand(actor, dto));
  }

  @Post(':notificationId/ack')
  @HttpCode(200)
  @ApiOperation({ summary: 'Acknowledge one of your notifications (no body; idempotent)' })
  @ApiParam({ name: 'notificationId', description: 'Notification id (a non-UUID is 400)', schema: { type: 'string', format: 'uuid' } })
  @ApiOkResponse({ type: NotificationAckEnvelope })
  @ApiBadRequestResponse({ description: 'notificationId is not a UUID' })
  @ApiNotFoundResponse({ description: "Unknown, someone else's, or about something you can no longer read" })
  ack(@CurrentActor() actor: Actor, @Param('notificationId') notificationId: string): Promise<NotificationAckEnvelope> {
    return this.commands.execute(new AckNotificationCommand(actor, notificationId));
  }
}
