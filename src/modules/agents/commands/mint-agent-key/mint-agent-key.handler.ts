import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { assertManageable } from '../../agent-management.policy';
import { AgentStore, MAX_ACTIVE_KEYS_PER_AGENT } from '../../agent.store';
import type { MintedKeyResponse } from '../../agents.response';
import { toMintedKeyResponse } from '../../agents.mapper';
import { MintAgentKeyCommand } from './mint-agent-key.command';

/** Adds one more key to a manageable agent (other keys keep working). The full key is shown once. */
@CommandHandler(MintAgentKeyCommand)
export class MintAgentKeyHandler implements ICommandHandler<MintAgentKeyCommand, MintedKeyResponse> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
    private readonly store: AgentStore,
  ) {}

  async execute({ actor, agentId }: MintAgentKeyCommand): Promise<MintedKeyResponse> {
    this.access.assertHuman(actor, 'Only humans can manage agent keys');
    const key = await this.db.transaction(async (m) => {
      await this.store.lock(m, actor.orgId, agentId);
      assertManageable(actor, await this.store.findOne(actor.orgId, agentId, m));
      if ((await this.store.activeKeyCount(m, actor.orgId, agentId)) >= MAX_ACTIVE_KEYS_PER_AGENT) {
        throw Errors.conflict(`An agent can have at most ${MAX_ACTIVE_KEYS_PER_AGENT} active keys; revoke one first`, 'too_many_keys');
      }
      return this.store.mintKey(m, actor.orgId, agentId, actor.memberId);
    });
    return toMintedKeyResponse(key);
  }
}
