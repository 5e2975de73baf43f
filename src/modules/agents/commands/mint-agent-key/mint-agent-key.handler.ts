import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { AgentManagementPolicy } from '../../agent-management.policy';
import { AgentsRepository, MAX_ACTIVE_KEYS_PER_AGENT } from '../../agents.repository';
import type { MintedKeyResponse } from '../../agents.response';
import { toMintedKeyResponse } from '../../agents.mapper';
import { MintAgentKeyCommand } from './mint-agent-key.command';
import { TxRunner } from '../../../../database/tx-runner';

/** Adds one more key to a manageable agent (other keys keep working). The full key is shown once. */
@CommandHandler(MintAgentKeyCommand)
export class MintAgentKeyHandler implements ICommandHandler<MintAgentKeyCommand, MintedKeyResponse> {
  constructor(
    private readonly tx: TxRunner,
    private readonly access: AccessPolicyService,
    private readonly policy: AgentManagementPolicy,
    private readonly agents: AgentsRepository,
  ) {}

  async execute({ actor, agentId }: MintAgentKeyCommand): Promise<MintedKeyResponse> {
    this.access.assertHuman(actor, 'Only humans can manage agent keys');
    const key = await this.tx.run(async (m) => {
      await this.access.lockCallerRole(actor, m);
      await this.agents.lock(actor.orgId, agentId, m);
      await this.policy.assertManageable(actor, await this.agents.findOne(actor.orgId, agentId, m), m);
      if ((await this.agents.activeKeyCount(actor.orgId, agentId, m)) >= MAX_ACTIVE_KEYS_PER_AGENT) {
        throw Errors.conflict(`An agent can have at most ${MAX_ACTIVE_KEYS_PER_AGENT} active keys; revoke one first`, 'too_many_keys');
      }
      return this.agents.mintKey(actor.orgId, agentId, actor.memberId, m);
    });
    return toMintedKeyResponse(key);
  }
}
