import { Injectable } from '@nestjs/common';
import type { ProjectAccess } from '../../common/access/access-policy.service';
import { AccessPolicyService, atLeast, maxLevel } from '../../common/access/access-policy.service';
import { type AgentPrincipal, Actor } from '../../common/auth/principal';
import { roleAtMost } from '../../common/auth/roles';
import { Errors } from '../../common/errors/domain-error';
import type { AccessLevel } from '../../common/access/access-level';
import type { Tx } from '../../database/sql.service';
import type { AgentRow } from './agent.types';

/**
 * Agent management authority (revoke, change projects, list/mint/revoke/rotate keys, see key
 * prefixes in the workforce view), always judged with the caller's CURRENT role and access (read
 * live on every request). Managing an agent means being able to act as it (a minted key is its
 * credential), so nobody manages an agent that holds more than they do:
 *
 * - human organization owners and admins manage every agent;
 * - a human who is neither manages only
 *   - a personal agent they own, while they are not a guest (guests cannot have personal agents;
 *     the agent acts with exactly its owner's live access, so it never holds more), or
 *   - a project-scoped agent they created, while they hold at least the agent's level on every
 *     project it can access (AccessPolicyService.coversAccessOf);
 *   and never an agent whose organization role is above their own, nor an organization agent
 *   (only owners and admins create those, so a demoted creator loses them);
 * - agent callers manage none (the routes are for humans; an admin agent key cannot manage
 *   other agents' credentials).
 *
 * A member's role change or removal re-evaluates, in the same transaction, the keys that member
 * minted (events/member-agents.handler.ts): a key survives only while its minter may still manage
 * the agent; a member's personal agents are revoked when the member is removed or becomes a guest.
 * Agents keep their role: keys, not roles, are re-evaluated (docs/DECISIONS.md, "Agents").
 */
@Injectable()
export class AgentManagementPolicy {
  constructor(private readonly access: AccessPolicyService) {}

  /** Whether the caller may manage the agent now (inside a transaction, pass it: `m`). */
  async canManage(actor: Actor, agent: AgentRow, m?: Tx): Promise<boolean> {
    return actor.isHuman && this.memberMayManage(actor, agent, m);
  }

  /**
   * The rule for a human member judged with the role given in `member` (the caller's live role, or
   * the new role of a member whose role is changing). See the class comment.
   */
  async memberMayManage(member: Actor, agent: AgentRow, m?: Tx): Promise<boolean> {
    if (member.isOwnerOrAdmin) return true;
    if (!roleAtMost(agent.role, member.role)) return false;
    switch (agent.agent_scope) {
      case 'personal': // role member: the role check above already refused a guest owner
        return agent.owner_member_id === member.memberId;
      case 'project':
        return agent.created_by_member_id === member.memberId && this.access.coversAccessOf(member, agentAsActor(member.orgId, agent), m);
      default:
        return false;
    }
  }

  /** Unknown, revoked and non-manageable agents are the same 404: their existence is not disclosed. */
  async assertManageable(actor: Actor, agent: AgentRow | null | undefined, m?: Tx): Promise<AgentRow> {
    if (!agent || !(await this.canManage(actor, agent, m))) throw Errors.notFound('Agent not found');
    return agent;
  }

  /** The rows the caller may manage, in their order. */
  async manageableAmong(actor: Actor, rows: AgentRow[]): Promise<AgentRow[]> {
    const out: AgentRow[] = [];
    for (const r of rows) if (await this.canManage(actor, r)) out.push(r);
    return out;
  }
}

/**
 * The agent as a caller, so AccessPolicyService can answer "what can this agent access" with the
 * same rules that apply when the agent authenticates (personal agents: their owner's live access;
 * project-scoped agents: guests with their explicit entries).
 */
export function agentAsActor(orgId: string, agent: AgentRow): Actor {
  const principal: AgentPrincipal = {
    kind: 'agent',
    keyId: '',
    orgId,
    memberId: agent.id,
    role: agent.role,
    displayName: agent.display_name,
    agentScope: agent.agent_scope,
    ownerMemberId: agent.owner_member_id,
  };
  return new Actor(orgId, agent.id, 'agent', agent.role, agent.display_name, principal, agent.agent_scope, agent.owner_member_id);
}

/**
 * Workforce capabilities: a closed set, derived by the server from the agent's live organization
 * role and effective project access (only over projects the caller can read, so a capability never
 * reveals a hidden project).
 *
 * - `read_projects`: can read at least one project
 * - `write_issues`: has `edit` or `admin` on at least one project (create and update issues, comment)
 * - `manage_projects`: has `admin` on at least one project (project settings and access)
 * - `manage_organization`: organization role `admin` (organization-wide administration)
 */
export const AGENT_CAPABILITIES = ['read_projects', 'write_issues', 'manage_projects', 'manage_organization'] as const;
export type AgentCapability = (typeof AGENT_CAPABILITIES)[number];

export function capabilitiesOf(agent: AgentRow, access: ProjectAccess, callerReadable: 'all' | Set<string>): AgentCapability[] {
  let best: AccessLevel | null = null;
  if (access.baseline && (callerReadable === 'all' || callerReadable.size > 0)) best = access.baseline;
  for (const [projectId, level] of access.explicit) {
    if (callerReadable === 'all' || callerReadable.has(projectId)) best = maxLevel(best, level);
  }
  const out: AgentCapability[] = [];
  if (atLeast(best, 'view')) out.push('read_projects');
  if (atLeast(best, 'edit')) out.push('write_issues');
  if (atLeast(best, 'admin')) out.push('manage_projects');
  if (agent.role === 'admin' || agent.role === 'owner') out.push('manage_organization');
  return out;
}
