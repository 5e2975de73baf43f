import { ProjectAgentsController } from './project-agents.controller';
import { GrantProjectAgentsHandler } from './commands/grant-project-agents/grant-project-agents.handler';
import { Module } from '@nestjs/common';
import { ProjectsModule } from '../projects/projects.module';
import { TeamsModule } from '../teams/teams.module';
import { AgentManagementPolicy } from './agent-management.policy';
import { AgentRevocation } from './agent-revocation.service';
import { AgentsRepository } from './agents.repository';
import { AgentsController } from './agents.controller';
import { CreateAgentHandler } from './commands/create-agent/create-agent.handler';
import { MintAgentKeyHandler } from './commands/mint-agent-key/mint-agent-key.handler';
import { ReplaceAgentProjectsHandler } from './commands/replace-agent-projects/replace-agent-projects.handler';
import { RevokeAgentHandler } from './commands/revoke-agent/revoke-agent.handler';
import { RevokeAgentKeyHandler } from './commands/revoke-agent-key/revoke-agent-key.handler';
import { RotateAgentKeysHandler } from './commands/rotate-agent-keys/rotate-agent-keys.handler';
import { MemberAgentsHandler } from './events/member-agents.handler';
import { ListAgentKeysHandler } from './queries/list-agent-keys/list-agent-keys.handler';
import { ListAgentsHandler } from './queries/list-agents/list-agents.handler';
import { ListManageableAgentsHandler } from './queries/list-manageable-agents/list-manageable-agents.handler';
import { ListWorkforceAgentsHandler } from './queries/list-workforce-agents/list-workforce-agents.handler';

/**
 * Agents (members of type `agent`) and their API keys: creation, management, manageable and
 * workforce views, and the re-evaluation of a member's agents and keys when the member's role
 * changes or the member is removed.
 */
@Module({
  imports: [ProjectsModule, TeamsModule],
  controllers: [AgentsController, ProjectAgentsController],
  providers: [
    AgentsRepository,
    GrantProjectAgentsHandler,
    AgentManagementPolicy,
    AgentRevocation,
    MemberAgentsHandler,
    CreateAgentHandler,
    RevokeAgentHandler,
    ReplaceAgentProjectsHandler,
    MintAgentKeyHandler,
    RevokeAgentKeyHandler,
    RotateAgentKeysHandler,
    ListAgentsHandler,
    ListAgentKeysHandler,
    ListManageableAgentsHandler,
    ListWorkforceAgentsHandler,
  ],
  // the oauth module judges consented agents with the same management rule
  exports: [AgentsRepository, AgentManagementPolicy],
})
export class AgentsModule {}
