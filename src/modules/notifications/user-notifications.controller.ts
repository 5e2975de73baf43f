import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, HumanOnly } from '../../common/auth/decorators';
import type { HumanPrincipal } from '../../common/auth/principal';
import { ReadAllUserNotificationsCommand } from './commands/read-all-user-notifications/read-all-user-notifications.command';
import { ReadUserNotificationCommand } from './commands/read-user-notification/read-user-notification.command';
import { NotificationAckEnvelope, ReadAllNotificationsResponse, UserNotificationList } from './notifications.response';
import { ListUserNotificationsQuery } from './queries/list-user-notifications/list-user-notifications.query';

/** A signed-in human's notifications across its organizations (web session only; agents 403). */
@ApiTags('notifications')
@HumanOnly()
@Controller('api/notifications')
export class UserNotificationsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Your latest 50 notifications over every organization (unread first, then newest), each as readable as in its organization' })
  @ApiOkResponse({ type: UserNotificationList })
  list(@CurrentPrincipal() principal: HumanPrincipal): Promise<UserNotificationList> {
    return this.queries.execute(new ListUserNotificationsQuery(principal));
  }

  @Post('read-all')
  @HttpCode(200)
  @ApiOperation({ summary: 'Mark every unread notification read, in every organization' })
  @ApiOkResponse({ type: ReadAllNotificationsResponse })
  readAll(@CurrentPrincipal() principal: HumanPrincipal): Promise<ReadAllNotificationsResponse> {
    return this.commands.execute(new ReadAllUserNotificationsCommand(principal));
  }

  @Post(':notificationId/read')
  @HttpCode(200)
  @ApiOperation({ summary: 'Mark one notification read (idempotent; the first read time is kept)' })
  @ApiParam({ name: 'notificationId', schema: { type: 'string', format: 'uuid' } })
  @ApiOkResponse({ type: NotificationAckEnvelope })
  @ApiBadRequestResponse({ description: 'notificationId is not a UUID' })
  @ApiNotFoundResponse({ description: "Unknown, someone else's, or about something you can no longer read" })
  read(@CurrentPrincipal() principal: HumanPrincipal, @Param('notificationId') notificationId: string): Promise<NotificationAckEnvelope> {
    return this.commands.execute(new ReadUserNotificationCommand(principal, notificationId));
  }
}
