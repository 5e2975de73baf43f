import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { assertManageable } from '../../agent-management.policy';
import { ProjectAccessRepository } from '../../../projects/project-access.repository';
import { TeamsRepository } from '../../../teams/teams.repository';
import { AgentsRepository } from '../../agents.repository';
import { RevokeAgentCommand } from './revoke-agent.command';

/**
 * Revokes a manageable agent: marks its member row removed, revokes every key and drops its project
 * and team entries. Its keys fail authentication from the next request on; it leaves every list
 * and no longer counts against the plan.
 */
@CommandHandler(RevokeAgentCommand)
export class RevokeAgentHandler implements ICommandHandler<RevokeAgentCommand, { success: true }> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
    private readonly agents: AgentsRepository,
    private readonly projectAccess: ProjectAccessRepository,
    private readonly teams: TeamsRepository,
  ) {}

  async execute({ actor, agentId }: RevokeAgentCommand): Promise<{ success: true }> {
    this.access.assertHuman(actor, 'Only humans can revoke agents');
    await this.db.transaction(async (m) => {
      await this.agents.lock(actor.orgId, agentId, m);
      assertManageable(actor, await this.agents.findOne(actor.orgId, agentId, m));
      await this.agents.markRemoved(actor.orgId, agentId, m);
      await this.agents.revokeAllKeys(actor.orgId, agentId, m);
      await this.projectAccess.removeMemberEverywhere(actor.orgId, agentId, m);
      await this.teams.removeMemberEverywhere(actor.orgId, agentId, m);
    });
    return { success: true };
  }
}
