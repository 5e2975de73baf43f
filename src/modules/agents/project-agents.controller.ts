import { Body, Controller, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiCreatedResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentActor, HumanOnly, OrgScoped } from '../../common/auth/decorators';
import type { Actor } from '../../common/auth/principal';
import { ProjectAgentsGranted } from './agents.response';
import { GrantProjectAgentsCommand } from './commands/grant-project-agents/grant-project-agents.command';
import { GrantProjectAgentsDto } from './commands/grant-project-agents/grant-project-agents.dto';

/** Project-side agent access: `POST /api/orgs/{id}/projects/{projectId}/agents`. */
@ApiTags('agents')
@ApiParam({ name: 'id', description: 'Organization id', schema: { type: 'string', format: 'uuid' } })
@OrgScoped()
@Controller('api/orgs/:id/projects/:projectId/agents')
export class ProjectAgentsController {
  constructor(private readonly commands: CommandBus) {}

  @Post()
  @HumanOnly()
  @ApiParam({ name: 'projectId', schema: { type: 'string', format: 'uuid' } })
  @ApiOperation({
    summary: 'Give selected manageable agents edit access to the project',
    description:
      '`{ agentIds }` (alias `agent_ids`), 1..50. Human callers with `admin` on the project who may manage each agent (otherwise 404 for that agent, nothing granted); personal agents are 400. Entries an agent already has keep their level. Applies on the agent’s next request.',
  })
  @ApiCreatedResponse({ type: ProjectAgentsGranted })
  grant(@CurrentActor() actor: Actor, @Param('projectId') projectId: string, @Body() dto: GrantProjectAgentsDto): Promise<ProjectAgentsGranted> {
    return this.commands.execute(new GrantProjectAgentsCommand(actor, projectId, dto.agentIds));
  }
}
