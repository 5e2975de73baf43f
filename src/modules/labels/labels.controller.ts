import { applyDecorators, Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CurrentActor, OrgScoped } from '../../common/auth/decorators';
import type { Actor } from '../../common/auth/principal';
import { parsePage } from '../../common/http/list';
import { UuidParamPipe } from '../../common/http/validation';
import { CreateLabelCommand } from './commands/create-label/create-label.command';
import { CreateLabelDto } from './commands/create-label/create-label.dto';
import { DeleteLabelCommand } from './commands/delete-label/delete-label.command';
import { UpdateLabelCommand } from './commands/update-label/update-label.command';
import { UpdateLabelDto } from './commands/update-label/update-label.dto';
import { LabelEnvelope, LabelList, SuccessResponse } from './labels.response';
import { GetLabelQuery } from './queries/get-label/get-label.query';
import { ListLabelsQuery } from './queries/list-labels/list-labels.query';
import { ApiErrors } from '../../common/openapi/decorators';

/** `limit`, `offset` and the list shape options. */
const ListQueries = () =>
  applyDecorators(
    ApiQuery({ name: 'limit', required: false, description: 'Page size, default 25, at most 100 (larger values are clamped)' }),
    ApiQuery({ name: 'offset', required: false, description: 'Rows to skip, default 0' }),
    ApiQuery({
      name: 'shape',
      required: false,
      enum: ['envelope', 'legacy'],
      description: '`envelope` returns `{ resource, items, total, limit, offset, nextOffset, truncated, hint }`',
    }),
    ApiQuery({ name: 'response_shape', required: false, enum: ['cli', 'legacy'], description: 'Alias: `cli` = `shape=envelope`' }),
  );

/** Labels: the organization's vocabulary. See LabelsModule for who may do what. */
@ApiTags('labels')
@ApiParam({ name: 'id', description: 'Organization id' })
@OrgScoped()
@Controller('api/orgs/:id/labels')
export class LabelsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @ApiOperation({ summary: 'List the labels of the organization (every member, guests included)' })
  @ListQueries()
  @ApiOkResponse({ type: LabelList, description: 'Legacy `{ labels, total, limit, offset }`, or the envelope with `shape=envelope`' })
  list(@CurrentActor() actor: Actor, @Query() query: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.queries.execute(new ListLabelsQuery(actor, parsePage(query)));
  }

  @Post()
  @ApiOperation({ summary: 'Create a label (non-guest members); 409 when the name exists in any letter case' })
  @ApiCreatedResponse({ type: LabelEnvelope })
  @ApiErrors({ 409: '`label_name_taken`: a label with this name exists (any letter case)' })
  async create(@CurrentActor() actor: Actor, @Body() dto: CreateLabelDto): Promise<LabelEnvelope> {
    return { label: await this.commands.execute(new CreateLabelCommand(actor, { name: dto.name, color: dto.color, description: dto.description })) };
  }

  @Get(':labelId')
  @ApiOperation({ summary: 'One label (every member)' })
  @ApiOkResponse({ type: LabelEnvelope })
  async get(@CurrentActor() actor: Actor, @Param('labelId', UuidParamPipe) labelId: string): Promise<LabelEnvelope> {
    return { label: await this.queries.execute(new GetLabelQuery(actor, labelId)) };
  }

  @Patch(':labelId')
  @ApiOperation({ summary: 'Update name, color or description (owners and admins)' })
  @ApiOkResponse({ type: LabelEnvelope })
  @ApiErrors({ 409: '`label_name_taken`: a label with this name exists (any letter case)' })
  async update(@CurrentActor() actor: Actor, @Param('labelId', UuidParamPipe) labelId: string, @Body() dto: UpdateLabelDto): Promise<LabelEnvelope> {
    return { label: await this.commands.execute(new UpdateLabelCommand(actor, labelId, { name: dto.name, color: dto.color, description: dto.description })) };
  }

  @Delete(':labelId')
  @ApiOperation({ summary: 'Delete a label; it is removed from every issue (owners and admins)' })
  @ApiOkResponse({ type: SuccessResponse })
  async remove(@CurrentActor() actor: Actor, @Param('labelId', UuidParamPipe) labelId: string): Promise<SuccessResponse> {
    await this.commands.execute(new DeleteLabelCommand(actor, labelId));
    return { success: true };
  }
}
