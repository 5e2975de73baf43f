import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { assertManageable } from '../../agent-management.policy';
import { AgentStore } from '../../agent.store';
import type { MintedKeyResponse } from '../../agents.response';
import { toMintedKeyResponse } from '../../agents.mapper';
import { RotateAgentKeysCommand } from './rotate-agent-keys.command';

/** Revokes every key of a manageable agent and mints one new key, atomically. */
@CommandHandler(RotateAgentKeysCommand)
export class RotateAgentKeysHandler implements ICommandHandler<RotateAgentKeysCommand, MintedKeyResponse> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
    private readonly store: AgentStore,
  ) {}

  async execute({ actor, agentId }: RotateAgentKeysCommand): Promise<MintedKeyResponse> {
    this.access.assertHuman(actor, 'Only humans can manage agent keys');
    const key = await this.db.transaction(async (m) => {
      await this.store.lock(m, actor.orgId, agentId);
      assertManageable(actor, await this.store.findOne(actor.orgId, agentId, m));
      await this.store.revokeAllKeys(m, actor.orgId, agentId);
      return this.store.mintKey(m, actor.orgId, agentId, actor.memberId);
    });
    return toMintedKeyResponse(key);
  }
}
