export class UserResponse {
  id: string;
  email: string;
  display_name: string;
  created_at: string;
}
export class UserEnvelope {
  user: UserResponse;
}
export class ProjectAccessEntry {
  projectId: string;
  /** Effective access: `view`, `edit` or `admin` */
  accessLevel: 'view' | 'edit' | 'admin';
}
export class OAuthProvenanceResponse {
  connection_id: string;
  profile_ref: string;
  resource: string;
  client: { client_id: string; client_name: string | null };
  consented_by: { user_id: string; display_name: string };
}
export class AuthContext {
  type: 'human' | 'agent';
  /** Account id of a human; null for agents (they have no account) */
  userId: string | null;
  /** The organization of an agent key; for a human the organization named by `?orgId=` or the first one joined (null when none) */
  orgId: string | null;
  /** Live organization role in `orgId` */
  role: 'owner' | 'admin' | 'member' | 'guest' | null;
  /** The caller's member id in `orgId` */
  memberId: string | null;
  displayName: string;
  /** Agents only: the agent id (equal to its member id) */
  agentId?: string;
  /** Agents only: always `agent` */
  memberType?: 'agent';
  /** Agents only: agent scope (`organization`, `project`, `personal`) */
  agentScope?: string;
  /** Agents only: key scopes (standard keys have none) */
  scopes?: string[];
  /** Agents only: effective access per project, read live */
  projectAccess?: ProjectAccessEntry[];
  /** Humans only */
  email?: string;
  /** OAuth-bound agents only: non-secret provenance (connection, profile_ref, consenting human, client, exact resource); absent for API keys */
  oauth?: OAuthProvenanceResponse;
}
export class AuthContextEnvelope {
  auth: AuthContext;
}
export class SuccessResponse {
  success: boolean;
}
