export class ProjectSummaryResponse {
  id: string;
  name: string;
}

/** An agent: a member of type `agent` (its id equals its member id). */
export class AgentResponse {
  /** Agent id (equal to `member_id`) */
  id: string;
  /** Member id of the agent in the organization */
  member_id: string;
  /** Name of the agent (same as `display_name`) */
  name: string;
  display_name: string;
  /** Always `agent` */
  type: 'agent';
  /** Live organization role: `admin` or `member` for organization agents, `member` for personal agents, `guest` for project-scoped agents */
  role: 'admin' | 'member' | 'guest';
  /** `organization`, `project` or `personal` */
  scope: 'organization' | 'project' | 'personal';
  /** Projects where the agent holds an explicit access entry (for project-scoped agents: its projects); only projects the caller can read */
  project_ids: string[];
  /** Personal agents: the member whose access the agent acts with; otherwise null */
  owner_member_id: string | null;
  /** The member who created the agent */
  created_by_member_id: string | null;
  created_at: string;
}

export class AgentEnvelope {
  agent: AgentResponse;
}

export class AgentListItemResponse extends AgentResponse {
  /** Display prefix of the newest active key (never the full key); null when the agent has no active key */
  key_prefix: string | null;
}

export class AgentListResponse {
  agents: AgentListItemResponse[];
  total: number;
  limit: number;
  offset: number;
}

export class CreatedAgentResponse {
  agent: AgentResponse;
  /** The full API key (`sk_service_…`). Shown only in this response: only its hash is stored */
  apiKey: string;
  /** Id of the key (use it to revoke the key) */
  apiKeyId: string;
}

export class AgentKeyResponse {
  id: string;
  /** Display prefix of the key (`sk_service_` plus 6 characters); never the full key */
  key_prefix: string;
  created_at: string;
  /** Last authenticated use (recorded at most once a minute); null when never used */
  last_used_at: string | null;
  /** When the key was revoked; null while active */
  revoked_at: string | null;
}

export class AgentKeyListResponse {
  /** Every key of the agent, newest first, active and revoked */
  keys: AgentKeyResponse[];
}

export class MintedKeySummary {
  id: string;
  key_prefix: string;
  created_at: string;
}

export class MintedKeyResponse {
  key: MintedKeySummary;
  /** The full API key, shown only in this response */
  apiKey: string;
  apiKeyId: string;
}

export class ManageableAgentResponse {
  id: string;
  member_id: string;
  display_name: string;
  role: 'admin' | 'member' | 'guest';
  scope: 'organization' | 'project' | 'personal';
  /** The agent's explicit project entries, only projects the caller can read */
  project_ids: string[];
  /** The same projects with their names */
  projects: ProjectSummaryResponse[];
  created_at: string;
  /** Prefix of the selected active key (the newest one not revoked); null when none */
  key_prefix: string | null;
  /** Last use of the selected active key; null when none or never used */
  last_used_at: string | null;
  /** Latest use over all active keys (OAuth agent profiles are not supported yet); null when none */
  activity_last_used_at: string | null;
}

export class ManageableAgentListResponse {
  agents: ManageableAgentResponse[];
  total: number;
  limit: number;
  offset: number;
}

export class WorkforceOwnerResponse {
  /** Member id of the owner */
  id: string;
  display_name: string;
}

export class WorkforceAgentResponse {
  id: string;
  display_name: string;
  avatar_url: string | null;
  role: 'admin' | 'member' | 'guest';
  created_at: string;
  /** Latest use over the agent's active keys; null when none */
  last_used_at: string | null;
  /** The agent's explicit project entries, only projects the caller can read */
  project_ids: string[];
  projects: ProjectSummaryResponse[];
  /** Personal agents: their owner; otherwise null */
  owner: WorkforceOwnerResponse | null;
  scope: 'organization' | 'project' | 'personal';
  /**
   * Derived by the server from the agent's live role and effective project access (over projects
   * the caller can read). Closed set: `read_projects`, `write_issues`, `manage_projects`,
   * `manage_organization`.
   */
  capabilities: string[];
  /** Present only when the caller may manage this agent's keys: prefix of the newest active key (null when none) */
  key_prefix?: string | null;
}

export class WorkforceListResponse {
  agents: WorkforceAgentResponse[];
  /** Exact number of visible agents */
  total: number;
  limit: number;
  offset: number;
  /** Offset of the next page; null when this is the last */
  nextOffset: number | null;
  /** True when more agents follow this page */
  truncated: boolean;
}

export class AgentSuccessResponse {
  success: boolean;
}

export class ProjectAgentsGranted {
  project_id: string;
  /** The selected agents after the grant, by id */
  agents: AgentResponse[];
}
