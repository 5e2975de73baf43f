/** Who a member is and what it may do in its organization (the `members` row's vocabulary). */
export type MemberType = 'human' | 'agent';
export type OrgRole = 'owner' | 'admin' | 'member' | 'guest';
export type AgentScope = 'organization' | 'project' | 'personal';

const ROLE_RANK: Record<OrgRole, number> = { guest: 0, member: 1, admin: 2, owner: 3 };
/** Whether role `a` is not above role `b` (guest < member < admin < owner). */
export const roleAtMost = (a: OrgRole, b: OrgRole): boolean => ROLE_RANK[a] <= ROLE_RANK[b];
