import { Body, Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentActor, OrgScoped } from '../../common/auth/decorators';
import { Actor } from '../../common/auth/principal';
import { UuidParamPipe } from '../../common/http/validation';
import { CreateCustomViewCommand } from './commands/create-custom-view/create-custom-view.command';
import { CreateCustomViewDto } from './commands/create-custom-view/create-custom-view.dto';
import { DeleteCustomViewCommand } from './commands/delete-custom-view/delete-custom-view.command';
import { UpdateCustomViewCommand } from './commands/update-custom-view/update-custom-view.command';
import { UpdateCustomViewDto } from './commands/update-custom-view/update-custom-view.dto';
import { CustomViewEnvelope, CustomViewListResponse, ProjectsSuccessResponse } from './projects.response';
import { ListCustomViewsQuery } from './queries/list-custom-views/list-custom-views.query';
import { ApiErrors } from '../../common/openapi/decorators';

/** Saved issue filters and sorts of a project. Reads need project read; writes need edit. */
@ApiTags('projects')
@ApiParam({ name: 'id', description: 'Organization id' })
@OrgScoped()
@Controller('api/orgs/:id/projects/:projectId/custom-views')
export class CustomViewsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @ApiOperation({ summary: 'List the project’s custom views (default views first)' })
  @ApiOkResponse({ type: CustomViewListResponse })
  list(@CurrentActor() actor: Actor, @Param('projectId', UuidParamPipe) projectId: string): Promise<CustomViewListResponse> {
    return this.queries.execute(new ListCustomViewsQuery(actor, projectId));
  }

  @Post()
  @ApiOperation({ summary: 'Create a custom view { name, filters?, sort?, display_mode?, color?, icon? }' })
  @ApiCreatedResponse({ type: CustomViewEnvelope })
  create(@CurrentActor() actor: Actor, @Param('projectId', UuidParamPipe) projectId: string, @Body() dto: CreateCustomViewDto): Promise<CustomViewEnvelope> {
    return this.commands.execute(new CreateCustomViewCommand(actor, projectId, dto));
  }

  @Patch(':viewId')
  @ApiOperation({ summary: 'Update a custom view (filters and sort are replaced whole; null clears)' })
  @ApiOkResponse({ type: CustomViewEnvelope })
  update(
    @CurrentActor() actor: Actor,
    @Param('projectId', UuidParamPipe) projectId: string,
    @Param('viewId', UuidParamPipe) viewId: string,
    @Body() dto: UpdateCustomViewDto,
  ): Promise<CustomViewEnvelope> {
    return this.commands.execute(new UpdateCustomViewCommand(actor, projectId, viewId, dto));
  }

  @Delete(':viewId')
  @ApiOperation({ summary: 'Delete a custom view (default views cannot be deleted: 409 default_view_protected)' })
  @ApiOkResponse({ type: ProjectsSuccessResponse })
  @ApiErrors({ 409: '`default_view_protected`: default custom views cannot be deleted' })
  remove(
    @CurrentActor() actor: Actor,
    @Param('projectId', UuidParamPipe) projectId: string,
    @Param('viewId', UuidParamPipe) viewId: string,
  ): Promise<ProjectsSuccessResponse> {
    return this.commands.execute(new DeleteCustomViewCommand(actor, projectId, viewId));
  }
}
