import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { AgentManagementPolicy } from '../../agent-management.policy';
import { AgentsRepository } from '../../agents.repository';
import { RevokeAgentKeyCommand } from './revoke-agent-key.command';

/**
 * Revokes one key of a manageable agent: it fails authentication from the next request on; the
 * agent's other keys keep working. Revoking an already revoked key is a no-op success.
 */
@CommandHandler(RevokeAgentKeyCommand)
export class RevokeAgentKeyHandler implements ICommandHandler<RevokeAgentKeyCommand, { success: true }> {
  constructor(
    private readonly access: AccessPolicyService,
    private readonly policy: AgentManagementPolicy,
    private readonly agents: AgentsRepository,
  ) {}

  async execute({ actor, agentId, keyId }: RevokeAgentKeyCommand): Promise<{ success: true }> {
    this.access.assertHuman(actor, 'Only humans can manage agent keys');
    await this.policy.assertManageable(actor, await this.agents.findOne(actor.orgId, agentId));
    if (!(await this.agents.hasKey(actor.orgId, agentId, keyId))) throw Errors.notFound('Key not found');
    await this.agents.revokeKey(actor.orgId, agentId, keyId);
    return { success: true };
  }
}
