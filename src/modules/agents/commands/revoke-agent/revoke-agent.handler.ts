import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { assertManageable } from '../../agent-management.policy';
import { AgentStore } from '../../agent.store';
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
    private readonly store: AgentStore,
  ) {}

  async execute({ actor, agentId }: RevokeAgentCommand): Promise<{ success: true }> {
    this.access.assertHuman(actor, 'Only humans can revoke agents');
    await this.db.transaction(async (m) => {
      await this.store.lock(m, actor.orgId, agentId);
      assertManageable(actor, await this.store.findOne(actor.orgId, agentId, m));
      await m.query(`UPDATE members SET removed_at = now(), updated_at = now() WHERE org_id = $1 AND id = $2 AND type = 'agent'`, [actor.orgId, agentId]);
      await this.store.revokeAllKeys(m, actor.orgId, agentId);
      await m.query('DELETE FROM project_members WHERE org_id = $1 AND member_id = $2', [actor.orgId, agentId]);
      await m.query('DELETE FROM team_members WHERE org_id = $1 AND member_id = $2', [actor.orgId, agentId]);
    });
    return { success: true };
  }
}
