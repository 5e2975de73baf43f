import { Body, Controller, Delete, Get, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CurrentActor, OrgScoped } from '../../common/auth/decorators';
import { Actor } from '../../common/auth/principal';
import { UuidParamPipe } from '../../common/http/validation';
import { CreateBoardColumnCommand } from './commands/create-board-column/create-board-column.command';
import { CreateBoardColumnDto } from './commands/create-board-column/create-board-column.dto';
import { CreateBoardViewCommand } from './commands/create-board-view/create-board-view.command';
import { CreateBoardViewDto } from './commands/create-board-view/create-board-view.dto';
import { DeleteBoardColumnCommand } from './commands/delete-board-column/delete-board-column.command';
import { DeleteBoardViewCommand } from './commands/delete-board-view/delete-board-view.command';
import { ReorderBoardColumnsCommand } from './commands/reorder-board-columns/reorder-board-columns.command';
import { ReorderBoardColumnsDto } from './commands/reorder-board-columns/reorder-board-columns.dto';
import { UpdateBoardColumnCommand } from './commands/update-board-column/update-board-column.command';
import { UpdateBoardColumnDto } from './commands/update-board-column/update-board-column.dto';
import { UpdateBoardViewCommand } from './commands/update-board-view/update-board-view.command';
import { UpdateBoardViewDto } from './commands/update-board-view/update-board-view.dto';
import {
  BoardColumnEnvelope,
  BoardColumnListResponse,
  BoardViewEnvelope,
  BoardViewListResponse,
  DeleteBoardColumnResponse,
  ProjectsSuccessResponse,
} from './projects.response';
import { ListBoardColumnsQuery } from './queries/list-board-columns/list-board-columns.query';
import { ListBoardViewsQuery } from './queries/list-board-views/list-board-views.query';
import { ApiErrors } from '../../common/openapi/decorators';

/** Board columns (the project's issue statuses) and board views. Reads need project read; writes need edit. */
@ApiTags('projects')
@ApiParam({ name: 'id', description: 'Organization id' })
@OrgScoped()
@Controller('api/orgs/:id/projects/:projectId')
export class BoardController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('board-columns')
  @ApiOperation({ summary: 'Board columns in position order, with recommendation roles, issue and release reference counts, and the accepted issue statuses' })
  @ApiOkResponse({ type: BoardColumnListResponse })
  listColumns(@CurrentActor() actor: Actor, @Param('projectId', UuidParamPipe) projectId: string): Promise<BoardColumnListResponse> {
    return this.queries.execute(new ListBoardColumnsQuery(actor, projectId));
  }

  @Post('board-columns')
  @ApiOperation({ summary: 'Append a column { key, label, description?, color?, recommendationRole? }; it is also appended to the Default board view' })
  @ApiCreatedResponse({ type: BoardColumnEnvelope })
  @ApiErrors({ 409: '`column_key_taken`: a column with this key exists in the project' })
  createColumn(
    @CurrentActor() actor: Actor,
    @Param('projectId', UuidParamPipe) projectId: string,
    @Body() dto: CreateBoardColumnDto,
  ): Promise<BoardColumnEnvelope> {
    return this.commands.execute(new CreateBoardColumnCommand(actor, projectId, dto));
  }

  @Put('board-columns/reorder')
  @ApiOperation({ summary: 'Reorder all columns atomically: { columns: [{ id, position }] } naming the complete current set' })
  @ApiOkResponse({ type: BoardColumnListResponse })
  reorderColumns(
    @CurrentActor() actor: Actor,
    @Param('projectId', UuidParamPipe) projectId: string,
    @Body() dto: ReorderBoardColumnsDto,
  ): Promise<BoardColumnListResponse> {
    return this.commands.execute(new ReorderBoardColumnsCommand(actor, projectId, dto));
  }

  @Patch('board-columns/:columnId')
  @ApiOperation({
    summary: 'Update a column’s label, description, color or recommendationRole (null clears each but label); key and position cannot change here',
  })
  @ApiOkResponse({ type: BoardColumnEnvelope })
  updateColumn(
    @CurrentActor() actor: Actor,
    @Param('projectId', UuidParamPipe) projectId: string,
    @Param('columnId', UuidParamPipe) columnId: string,
    @Body() dto: UpdateBoardColumnDto,
  ): Promise<BoardColumnEnvelope> {
    return this.commands.execute(new UpdateBoardColumnCommand(actor, projectId, columnId, dto));
  }

  @Delete('board-columns/:columnId')
  @ApiOperation({ summary: 'Delete a column; issues in it move to ?reassignTo= (required when there are any); the last column cannot go' })
  @ApiQuery({ name: 'reassignTo', required: false, description: 'Another column of this project to move the column’s issues to (alias `reassign_to`)' })
  @ApiOkResponse({ type: DeleteBoardColumnResponse })
  @ApiErrors({ 409: '`last_column`: the last column of a project cannot be deleted' })
  deleteColumn(
    @CurrentActor() actor: Actor,
    @Param('projectId', UuidParamPipe) projectId: string,
    @Param('columnId', UuidParamPipe) columnId: string,
    @Query() query: Record<string, unknown>,
  ): Promise<DeleteBoardColumnResponse> {
    return this.commands.execute(new DeleteBoardColumnCommand(actor, projectId, columnId, query));
  }

  @Get('board-views')
  @ApiOperation({ summary: 'Board columns and board views (default view first)' })
  @ApiOkResponse({ type: BoardViewListResponse })
  listViews(@CurrentActor() actor: Actor, @Param('projectId', UuidParamPipe) projectId: string): Promise<BoardViewListResponse> {
    return this.queries.execute(new ListBoardViewsQuery(actor, projectId));
  }

  @Post('board-views')
  @ApiOperation({ summary: 'Create a board view { name, columnIds }' })
  @ApiCreatedResponse({ type: BoardViewEnvelope })
  createView(@CurrentActor() actor: Actor, @Param('projectId', UuidParamPipe) projectId: string, @Body() dto: CreateBoardViewDto): Promise<BoardViewEnvelope> {
    return this.commands.execute(new CreateBoardViewCommand(actor, projectId, dto));
  }

  @Patch('board-views/:viewId')
  @ApiOperation({ summary: 'Rename a board view and/or replace its columns { name?, columnIds? }' })
  @ApiOkResponse({ type: BoardViewEnvelope })
  updateView(
    @CurrentActor() actor: Actor,
    @Param('projectId', UuidParamPipe) projectId: string,
    @Param('viewId', UuidParamPipe) viewId: string,
    @Body() dto: UpdateBoardViewDto,
  ): Promise<BoardViewEnvelope> {
    return this.commands.execute(new UpdateBoardViewCommand(actor, projectId, viewId, dto));
  }

  @Delete('board-views/:viewId')
  @ApiOperation({ summary: 'Delete a board view (the default view cannot be deleted: 409 default_view_protected)' })
  @ApiOkResponse({ type: ProjectsSuccessResponse })
  @ApiErrors({ 409: '`default_view_protected`: the default board view cannot be deleted' })
  deleteView(
    @CurrentActor() actor: Actor,
    @Param('projectId', UuidParamPipe) projectId: string,
    @Param('viewId', UuidParamPipe) viewId: string,
  ): Promise<ProjectsSuccessResponse> {
    return this.commands.execute(new DeleteBoardViewCommand(actor, projectId, viewId));
  }
}
