import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentActor, OrgScoped } from '../../common/auth/decorators';
import type { Actor } from '../../common/auth/principal';
import { BoardContextResponse } from './initiatives.response';
import { GetBoardContextQuery } from './queries/get-board-context/get-board-context.query';

/** `GET /api/orgs/{id}/projects/{projectId}/board-context`: the board's milestone and initiative focus. */
@ApiTags('projects')
@ApiParam({ name: 'id', description: 'Organization id', schema: { type: 'string', format: 'uuid' } })
@OrgScoped()
@Controller('api/orgs/:id/projects/:projectId/board-context')
export class BoardContextController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiParam({ name: 'projectId', schema: { type: 'string', format: 'uuid' } })
  @ApiOperation({
    summary: "The milestone and initiative focus of a project's board (any access to the project)",
    description:
      'Milestones of the project with issue counts and progress and their linked initiatives; initiatives bound or linked to the project or linking its milestones or issues, counted over their non-archived issues in this project; and which issues carry which initiatives (directly or through their milestone). Initiatives the caller cannot read are left out.',
  })
  @ApiOkResponse({ type: BoardContextResponse })
  get(@CurrentActor() actor: Actor, @Param('projectId') projectId: string): Promise<BoardContextResponse> {
    return this.queries.execute(new GetBoardContextQuery(actor, projectId));
  }
}
