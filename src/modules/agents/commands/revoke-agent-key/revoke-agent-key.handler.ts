import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { assertManageable } from '../../agent-management.policy';
import { AgentStore } from '../../agent.store';
import { RevokeAgentKeyCommand } from './revoke-agent-key.command';

/**
 * Revokes one key of a manageable agent: it fails authentication from the next request on; the
 * agent's other keys keep working. Revoking an already revoked key is a no-op success.
 */
@CommandHandler(RevokeAgentKeyCommand)
export class RevokeAgentKeyHandler implements ICommandHandler<RevokeAgentKeyCommand, { success: true }> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
    private readonly store: AgentStore,
  ) {}

  async execute({ actor, agentId, keyId }: RevokeAgentKeyCommand): Promise<{ success: true }> {
    this.access.assertHuman(actor, 'Only humans can manage agent keys');
    assertManageable(actor, await this.store.findOne(actor.orgId, agentId));
    const found: unknown[] = await this.db.query('SELECT 1 FROM api_keys WHERE org_id = $1 AND member_id = $2 AND id = $3', [actor.orgId, agentId, keyId]);
    if (!found.length) throw Errors.notFound('Key not found');
    await this.db.query('UPDATE api_keys SET revoked_at = now() WHERE org_id = $1 AND member_id = $2 AND id = $3 AND revoked_at IS NULL', [actor.orgId, agentId, keyId]);
    return { success: true };
  }
}
