import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentActor, OrgScoped } from '../../common/auth/decorators';
import type { Actor } from '../../common/auth/principal';
import { parsePage } from '../../common/http/list';
import { ApiPagedList } from '../../common/openapi/decorators';
import { CreateStatusUpdateCommand } from './commands/create-status-update/create-status-update.command';
import { CreateStatusUpdateDto } from './commands/create-status-update/create-status-update.dto';
import { ProjectHealthResponse, StatusUpdateEnvelope, StatusUpdateList } from './project-status.response';
import { ListStatusUpdatesQuery } from './queries/list-status-updates/list-status-updates.query';
import { ProjectHealthQuery } from './queries/project-health/project-health.query';

/** Project status updates and the organization's project health (see ProjectStatusModule). */
@ApiTags('project status')
@ApiParam({ name: 'id', description: 'Organization id', schema: { type: 'string', format: 'uuid' } })
@OrgScoped()
@Controller('api/orgs/:id')
export class ProjectStatusController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('projects/:projectId/status-updates')
  @ApiOperation({ summary: "A project's status updates, newest first (any access to the project)" })
  @ApiParam({ name: 'projectId', schema: { type: 'string', format: 'uuid' } })
  @ApiPagedList()
  @ApiOkResponse({ type: StatusUpdateList })
  list(@CurrentActor() actor: Actor, @Param('projectId') projectId: string, @Query() query: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.queries.execute(new ListStatusUpdatesQuery(actor, projectId, parsePage(query)));
  }

  @Post('projects/:projectId/status-updates')
  @ApiOperation({
    summary: 'Post a status update (edit or admin access to the project)',
    description:
      'Recorded in the organization activity feed (`project.status_updated`, with the previous status), delivered to webhooks subscribed to `project.status_updated`, and while the latest status is `off_track` a `project_off_track` heartbeat signal (category `project`) for agents with assigned work in the project.',
  })
  @ApiParam({ name: 'projectId', schema: { type: 'string', format: 'uuid' } })
  @ApiCreatedResponse({ type: StatusUpdateEnvelope })
  async create(@CurrentActor() actor: Actor, @Param('projectId') projectId: string, @Body() dto: CreateStatusUpdateDto): Promise<StatusUpdateEnvelope> {
    return { status_update: await this.commands.execute(new CreateStatusUpdateCommand(actor, projectId, dto)) };
  }

  @Get('project-health')
  @ApiOperation({ summary: 'The latest status of every project the caller can read (by name; null status without updates; no readable project: empty)' })
  @ApiOkResponse({ type: ProjectHealthResponse })
  health(@CurrentActor() actor: Actor): Promise<ProjectHealthResponse> {
    return this.queries.execute(new ProjectHealthQuery(actor));
  }
}
