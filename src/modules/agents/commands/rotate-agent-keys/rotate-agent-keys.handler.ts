import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { AgentManagementPolicy } from '../../agent-management.policy';
import { AgentsRepository } from '../../agents.repository';
import type { MintedKeyResponse } from '../../agents.response';
import { toMintedKeyResponse } from '../../agents.mapper';
import { RotateAgentKeysCommand } from './rotate-agent-keys.command';
import { TxRunner } from '../../../../database/tx-runner';

/** Revokes every key of a manageable agent and mints one new key, atomically. */
@CommandHandler(RotateAgentKeysCommand)
export class RotateAgentKeysHandler implements ICommandHandler<RotateAgentKeysCommand, MintedKeyResponse> {
  constructor(
    private readonly tx: TxRunner,
    private readonly access: AccessPolicyService,
    private readonly policy: AgentManagementPolicy,
    private readonly agents: AgentsRepository,
  ) {}

  async execute({ actor, agentId }: RotateAgentKeysCommand): Promise<MintedKeyResponse> {
    this.access.assertHuman(actor, 'Only humans can manage agent keys');
    const key = await this.tx.run(async (m) => {
      await this.access.lockCallerRole(actor, m);
      await this.agents.lock(actor.orgId, agentId, m);
      await this.policy.assertManageable(actor, await this.agents.findOne(actor.orgId, agentId, m), m);
      await this.agents.revokeAllKeys(actor.orgId, agentId, m);
      return this.agents.mintKey(actor.orgId, agentId, actor.memberId, m);
    });
    return toMintedKeyResponse(key);
  }
}
