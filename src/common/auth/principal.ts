import type { AgentScope, MemberType, OrgRole } from './roles';

/** An explicit project grant of a member, or `edit` through one of its teams (AccessPolicyService folds them). */
export interface MemberGrant {
  project_id: string;
  access_level: 'view' | 'edit' | 'admin';
}

/** Who authenticated: a human web session or an agent API key. */
export type Principal = HumanPrincipal | AgentPrincipal;

export interface HumanPrincipal {
  kind: 'human';
  userId: string;
  sessionId: string;
  email: string;
  displayName: string;
}

/** An automation rule acting on its own (no credential, no member): see `automationActor`. */
export interface AutomationPrincipal {
  kind: 'automation';
  orgId: string;
  ruleId: string;
}

export interface AgentPrincipal {
  kind: 'agent';
  keyId: string;
  orgId: string;
  memberId: string;
  role: OrgRole;
  displayName: string;
  agentScope: AgentScope;
  ownerMemberId: string | null;
  /** The agent member's avatar, read with the key (absent when not read). */
  avatarUrl?: string | null;
  /** The agent's own project grants, read with the key (null: not read, e.g. owners, admins, personal agents). */
  grants?: MemberGrant[] | null;
}

/**
 * The caller inside one organization: its member record, read live on every request (role and
 * membership changes apply on the next request, with no key rotation).
 */
export class Actor {
  constructor(
    readonly orgId: string,
    readonly memberId: string,
    readonly memberType: MemberType | 'automation',
    readonly role: OrgRole,
    readonly displayName: string,
    readonly principal: Principal | AutomationPrincipal,
    readonly agentScope: AgentScope | null = null,
    readonly ownerMemberId: string | null = null,
    /** The member's avatar as read with it (undefined: not read; timeline snapshots then look it up). */
    readonly avatarUrl?: string | null,
    /** The member's own project grants as read with it (null/undefined: not read; AccessPolicyService reads them). */
    readonly grants?: readonly MemberGrant[] | null,
  ) {}

  get isHuman(): boolean {
    return this.principal.kind === 'human';
  }
  get isOwnerOrAdmin(): boolean {
    return this.role === 'owner' || this.role === 'admin';
  }
  get isGuest(): boolean {
    return this.role === 'guest';
  }
  /** The actor of an automation rule's actions (see `automationActor`). */
  get isAutomation(): boolean {
    return this.principal.kind === 'automation';
  }
}

/**
 * The actor of an automation rule's actions. It is no member: `memberId` is null at run time
 * (typed `string` for the member paths; automation only enters code that records its actor through
 * `snapshotOf` / `eventActorOf` / `stageIssueActivity`, which record it as "Automation" with no
 * member). Access: AccessPolicyService gives it `admin` on every project of its own organization
 * (rules are written by owners/admins, and the rule's actions must be able to change the issue that
 * triggered it); access for members is unchanged.
 */
export function automationActor(orgId: string, ruleId: string): Actor {
  return new Actor(orgId, null as unknown as string, 'automation', 'member', 'Automation', { kind: 'automation', orgId, ruleId });
}

/** A member row as the access policy needs it to judge another member (not the caller). */
export interface MemberAccessRow {
  id: string;
  type: string;
  role: OrgRole;
  display_name: string;
  agent_scope: AgentScope | null;
  owner_member_id: string | null;
}

/**
 * A read-only Actor for another member of the organization, only to ask the access policy what
 * that member may read (mention targets, notification recipients). It authenticates nothing.
 */
export function actorForMember(orgId: string, t: MemberAccessRow): Actor {
  const principal: AgentPrincipal = {
    kind: 'agent',
    keyId: '',
    orgId,
    memberId: t.id,
    role: t.role,
    displayName: t.display_name,
    agentScope: t.agent_scope ?? 'organization',
    ownerMemberId: t.owner_member_id,
  };
  return new Actor(orgId, t.id, t.type as MemberType, t.role, t.display_name, principal, t.agent_scope, t.owner_member_id);
}
