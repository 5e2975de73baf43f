import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { actorForMember } from '../../../common/auth/principal';
import { type DomainEvent, DomainEvents, MemberAccessChangedEvent } from '../../../common/events/domain-events';
import { AgentManagementPolicy } from '../agent-management.policy';
import { AgentRevocation } from '../agent-revocation.service';
import { AgentsRepository } from '../agents.repository';

/**
 * Re-evaluates the agents a human member stands behind when the member's role changes or the
 * member is removed, in the transaction of that change (staged by the members module):
 *
 * - removed, or now a guest: their personal agents are revoked (with every key, whoever minted it);
 * - every active key the member minted survives only while the member may still manage its agent
 *   with the new role (AgentManagementPolicy); removed members manage none, so all of them go.
 *
 * Keys minted by others stay: whoever minted a key holds it and answers for it. Agents keep their
 * role; owners and admins manage them as before.
 */
@Injectable()
export class MemberAgentsHandler implements OnModuleInit {
  constructor(
    private readonly events: DomainEvents,
    private readonly agents: AgentsRepository,
    private readonly policy: AgentManagementPolicy,
    private readonly revocation: AgentRevocation,
  ) {}

  onModuleInit(): void {
    this.events.register({ onStaged: (m, e) => this.onStaged(m, e) });
  }

  async onStaged(m: EntityManager, e: DomainEvent): Promise<void> {
    if (!(e instanceof MemberAccessChangedEvent) || e.memberType !== 'human') return;
    if (e.role === null || e.role === 'guest') {
      for (const agent of await this.agents.find(e.orgId, { kind: 'ownedBy', memberId: e.memberId }, undefined, m)) {
        await this.agents.lock(e.orgId, agent.id, m);
        await this.revocation.revoke(e.orgId, agent.id, m);
      }
    }
    const keyed = await this.agents.find(e.orgId, { kind: 'keyedBy', memberId: e.memberId }, undefined, m);
    if (!keyed.length) return;
    let lost = keyed;
    if (e.role !== null) {
      const member = actorForMember(e.orgId, {
        id: e.memberId,
        type: 'human',
        role: e.role,
        display_name: e.displayName,
        agent_scope: null,
        owner_member_id: null,
      });
      lost = [];
      for (const agent of keyed) if (!(await this.policy.memberMayManage(member, agent, m))) lost.push(agent);
    }
    if (lost.length)
      await this.agents.revokeKeysMintedBy(
        e.orgId,
        lost.map((a) => a.id),
        e.memberId,
        m,
      );
  }
}
