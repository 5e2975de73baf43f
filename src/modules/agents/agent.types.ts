import type { AgentScope, OrgRole } from '../../common/auth/roles';

/** One active agent as read by `AgentsRepository` (snake_case: straight from SQL). */
export interface AgentRow {
  id: string;
  role: OrgRole;
  display_name: string;
  avatar_url: string | null;
  agent_scope: AgentScope;
  owner_member_id: string | null;
  owner_display_name: string | null;
  created_by_member_id: string | null;
  created_at: Date;
  /** Projects where the agent itself holds an explicit grant (project_members), in grant order. */
  project_ids: string[];
  /** The selected active key: the newest one not revoked (null when the agent has none). */
  key_prefix: string | null;
  key_last_used_at: Date | null;
  /** Latest use over all active keys. */
  activity_last_used_at: Date | null;
}

export interface KeyRow {
  id: string;
  key_prefix: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

/** A freshly minted key: the full secret exists only in this value, never in storage. */
export interface MintedKey {
  id: string;
  key: string;
  prefix: string;
  createdAt: Date;
}
