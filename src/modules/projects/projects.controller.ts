import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CurrentActor, OrgScoped } from '../../common/auth/decorators';
import { Actor } from '../../common/auth/principal';
import { UuidParamPipe } from '../../common/http/validation';
import { CreateProjectCommand } from './commands/create-project/create-project.command';
import { CreateProjectDto } from './commands/create-project/create-project.dto';
import { DeleteProjectCommand } from './commands/delete-project/delete-project.command';
import { DeleteProjectDto } from './commands/delete-project/delete-project.dto';
import { UpdateProjectCommand } from './commands/update-project/update-project.command';
import { UpdateProjectDto } from './commands/update-project/update-project.dto';
import { ProjectEnvelope, ProjectListResponse, ProjectsSuccessResponse } from './projects.response';
import { GetProjectQuery } from './queries/get-project/get-project.query';
import { ListProjectsQuery } from './queries/list-projects/list-projects.query';
import { ApiErrors } from '../../common/openapi/decorators';

@ApiTags('projects')
@ApiParam({ name: 'id', description: 'Organization id' })
@OrgScoped()
@Controller('api/orgs/:id/projects')
export class ProjectsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @ApiOperation({ summary: 'List the projects the caller can read (guests: only projects they were given access to)' })
  @ApiQuery({ name: 'status', required: false, enum: ['active', 'archived'], description: 'Only projects in this status' })
  @ApiQuery({ name: 'limit', required: false, description: 'Page size, default 25, max 100' })
  @ApiQuery({ name: 'offset', required: false, description: 'Items to skip, default 0' })
  @ApiQuery({
    name: 'shape',
    required: false,
    enum: ['legacy', 'envelope'],
    description: '`envelope` returns { resource, items, total, limit, offset, nextOffset, truncated, hint }',
  })
  @ApiQuery({ name: 'response_shape', required: false, enum: ['legacy', 'cli'], description: 'Alias: `cli` selects the envelope' })
  @ApiOkResponse({ type: ProjectListResponse })
  list(@CurrentActor() actor: Actor, @Query() query: Record<string, unknown>) {
    return this.queries.execute(new ListProjectsQuery(actor, query));
  }

  @Post()
  @ApiOperation({
    summary: 'Create a project (owner/admin); its board columns, Default board view and default custom views are created atomically',
  })
  @ApiCreatedResponse({ type: ProjectEnvelope })
  @ApiErrors(402, { 409: '`project_key_taken`, `project_key_reserved`: the key is used by another project or reserved' })
  create(@CurrentActor() actor: Actor, @Body() dto: CreateProjectDto): Promise<ProjectEnvelope> {
    return this.commands.execute(new CreateProjectCommand(actor, dto));
  }

  @Get(':projectId')
  @ApiOperation({ summary: 'One project with the caller’s access level (404 when not readable)' })
  @ApiOkResponse({ type: ProjectEnvelope })
  get(@CurrentActor() actor: Actor, @Param('projectId', UuidParamPipe) projectId: string): Promise<ProjectEnvelope> {
    return this.queries.execute(new GetProjectQuery(actor, projectId));
  }

  @Patch(':projectId')
  @ApiOperation({ summary: 'Update name, description, color, icon or status (project admin); reactivating counts against the plan' })
  @ApiOkResponse({ type: ProjectEnvelope })
  @ApiErrors(402)
  update(@CurrentActor() actor: Actor, @Param('projectId', UuidParamPipe) projectId: string, @Body() dto: UpdateProjectDto): Promise<ProjectEnvelope> {
    return this.commands.execute(new UpdateProjectCommand(actor, projectId, dto));
  }

  @Delete(':projectId')
  @ApiOperation({ summary: 'Permanently delete a project and everything in it (owner/admin); body { "confirmation": "DELETE" }' })
  @ApiOkResponse({ type: ProjectsSuccessResponse })
  remove(@CurrentActor() actor: Actor, @Param('projectId', UuidParamPipe) projectId: string, @Body() dto: DeleteProjectDto): Promise<ProjectsSuccessResponse> {
    return this.commands.execute(new DeleteProjectCommand(actor, projectId, dto.confirmation));
  }
}
