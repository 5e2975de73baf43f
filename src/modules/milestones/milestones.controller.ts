import { Body, Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentActor, OrgScoped } from '../../common/auth/decorators';
import type { Actor } from '../../common/auth/principal';
import { UuidParamPipe } from '../../common/http/validation';
import { CreateMilestoneCommand } from './commands/create-milestone/create-milestone.command';
import { CreateMilestoneDto } from './commands/create-milestone/create-milestone.dto';
import { DeleteMilestoneCommand } from './commands/delete-milestone/delete-milestone.command';
import { UpdateMilestoneCommand } from './commands/update-milestone/update-milestone.command';
import { UpdateMilestoneDto } from './commands/update-milestone/update-milestone.dto';
import { MilestoneEnvelope, MilestoneListResponse, MilestoneSuccessResponse } from './milestones.response';
import { GetMilestoneQuery } from './queries/get-milestone/get-milestone.query';
import { ListMilestonesQuery } from './queries/list-milestones/list-milestones.query';
import { ApiErrors } from '../../common/openapi/decorators';

/** Milestones of a project. See MilestonesModule for who may do what. */
@ApiTags('milestones')
@ApiParam({ name: 'id', description: 'Organization id' })
@OrgScoped()
@Controller('api/orgs/:id')
export class MilestonesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('projects/:projectId/milestones')
  @ApiOperation({ summary: 'List the milestones of a project (project read)' })
  @ApiOkResponse({ type: MilestoneListResponse })
  list(@CurrentActor() actor: Actor, @Param('projectId', UuidParamPipe) projectId: string): Promise<MilestoneListResponse> {
    return this.queries.execute(new ListMilestonesQuery(actor, projectId));
  }

  @Post('projects/:projectId/milestones')
  @ApiOperation({ summary: 'Create a milestone { name, description?, target_date?, status? } (project edit)' })
  @ApiCreatedResponse({ type: MilestoneEnvelope })
  @ApiErrors({ 409: '`milestone_name_taken`: a milestone with this name exists in the project' })
  create(@CurrentActor() actor: Actor, @Param('projectId', UuidParamPipe) projectId: string, @Body() dto: CreateMilestoneDto): Promise<MilestoneEnvelope> {
    return this.commands.execute(new CreateMilestoneCommand(actor, projectId, dto));
  }

  @Get('milestones/:milestoneId')
  @ApiOperation({ summary: 'One milestone (project read)' })
  @ApiOkResponse({ type: MilestoneEnvelope })
  get(@CurrentActor() actor: Actor, @Param('milestoneId', UuidParamPipe) milestoneId: string): Promise<MilestoneEnvelope> {
    return this.queries.execute(new GetMilestoneQuery(actor, milestoneId));
  }

  @Patch('milestones/:milestoneId')
  @ApiOperation({ summary: 'Update a milestone (project edit); only given fields change, null clears' })
  @ApiOkResponse({ type: MilestoneEnvelope })
  @ApiErrors({ 409: '`milestone_name_taken`: a milestone with this name exists in the project' })
  update(@CurrentActor() actor: Actor, @Param('milestoneId', UuidParamPipe) milestoneId: string, @Body() dto: UpdateMilestoneDto): Promise<MilestoneEnvelope> {
    return this.commands.execute(new UpdateMilestoneCommand(actor, milestoneId, dto));
  }

  @Delete('milestones/:milestoneId')
  @ApiOperation({ summary: 'Delete a milestone (owners and admins); its issues keep existing without milestone' })
  @ApiOkResponse({ type: MilestoneSuccessResponse })
  remove(@CurrentActor() actor: Actor, @Param('milestoneId', UuidParamPipe) milestoneId: string): Promise<MilestoneSuccessResponse> {
    return this.commands.execute(new DeleteMilestoneCommand(actor, milestoneId));
  }
}
