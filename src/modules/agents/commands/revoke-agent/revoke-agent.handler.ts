import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { AgentManagementPolicy } from '../../agent-management.policy';
import { AgentRevocation } from '../../agent-revocation.service';
import { AgentsRepository } from '../../agents.repository';
import { RevokeAgentCommand } from './revoke-agent.command';
import { TxRunner } from '../../../../database/tx-runner';

/**
 * Revokes a manageable agent: marks its member row removed, revokes every key and drops its project
 * and team entries. Its keys fail authentication from the next request on; it leaves every list
 * and no longer counts against the plan.
 */
@CommandHandler(RevokeAgentCommand)
export class RevokeAgentHandler implements ICommandHandler<RevokeAgentCommand, { success: true }> {
  constructor(
    private readonly tx: TxRunner,
    private readonly access: AccessPolicyService,
    private readonly policy: AgentManagementPolicy,
    private readonly agents: AgentsRepository,
    private readonly revocation: AgentRevocation,
  ) {}

  async execute({ actor, agentId }: RevokeAgentCommand): Promise<{ success: true }> {
    this.access.assertHuman(actor, 'Only humans can revoke agents');
    await this.tx.run(async (m) => {
      await this.access.lockCallerRole(actor, m);
      await this.agents.lock(actor.orgId, agentId, m);
      await this.policy.assertManageable(actor, await this.agents.findOne(actor.orgId, agentId, m), m);
      await this.revocation.revoke(actor.orgId, agentId, m);
    });
    return { success: true };
  }
}
