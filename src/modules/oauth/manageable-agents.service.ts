import { Injectable } from '@nestjs/common';
import { Actor, type HumanPrincipal } from '../../common/auth/principal';
import { AgentManagementPolicy } from '../agents/agent-management.policy';
import { AgentsRepository } from '../agents/agents.repository';
import { OAuthRepository } from './oauth.repository';

export interface ConsentableAgent {
  id: string;
  display_name: string;
  organization: { id: string; name: string };
  designation: string;
}

/** The agents a human may hand to an OAuth connection: those they may manage now, in every organization they belong to. */
@Injectable()
export class ManageableAgents {
  constructor(
    private readonly repo: OAuthRepository,
    private readonly agents: AgentsRepository,
    private readonly policy: AgentManagementPolicy,
  ) {}

  async of(userId: string): Promise<ConsentableAgent[]> {
    const out: ConsentableAgent[] = [];
    for (const m of await this.repo.memberships(userId)) {
      const principal: HumanPrincipal = { kind: 'human', userId, sessionId: '', email: '', displayName: m.display_name };
      const actor = new Actor(m.org_id, m.member_id, 'human', m.role, m.display_name, principal);
      const rows = actor.isOwnerOrAdmin
        ? await this.agents.find(m.org_id, { kind: 'all' }, { limit: 500, offset: 0 })
        : await this.agents.find(m.org_id, { kind: 'createdOrOwnedBy', memberId: m.member_id });
      for (const a of await this.policy.manageableAmong(actor, rows)) {
        out.push({ id: a.id, display_name: a.display_name, organization: { id: m.org_id, name: m.org_name }, designation: a.agent_scope });
      }
    }
    return out;
  }
}
