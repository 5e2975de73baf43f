/** Who a member is and what it may do in its organization (the `members` row's vocabulary). */
export type MemberType = 'human' | 'agent';
export type OrgRole = 'owner' | 'admin' | 'member' | 'guest';
export type AgentScope = 'organization' | 'project' | 'personal';
