import type { ProjectAccess } from '../../common/access/access-policy.service';
import { atLeast, maxLevel } from '../../common/access/access-policy.service';
import { type AgentPrincipal, Actor } from '../../common/auth/principal';
import { Errors } from '../../common/errors/domain-error';
import type { AccessLevel } from '../../common/access/access-level';
import type { AgentRow } from './agent.types';

/**
 * Agent management authority (revoke, change projects, list/mint/revoke/rotate keys, see key
 * prefixes in the workforce view). Project access itself is always decided by
 * AccessPolicyService; this only adds who stands behind an agent:
 *
 * - human organization owners and admins manage every agent;
 * - the member who created an agent manages it;
 * - the owner of a personal agent manages it.
 *
 * Agent callers never get the owner/admin clause (an admin agent key cannot manage other agents'
 * credentials), and agents cannot create agents, so in practice an agent manages none.
 */
export function canManageAgent(actor: Actor, agent: Pick<AgentRow, 'created_by_member_id' | 'owner_member_id'>): boolean {
  if (actor.isHuman && actor.isOwnerOrAdmin) return true;
  return agent.created_by_member_id === actor.memberId || agent.owner_member_id === actor.memberId;
}

/** Unknown, revoked and non-manageable agents are the same 404: their existence is not disclosed. */
export function assertManageable(actor: Actor, agent: AgentRow | null): AgentRow {
  if (!agent || !canManageAgent(actor, agent)) throw Errors.notFound('Agent not found');
  return agent;
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
