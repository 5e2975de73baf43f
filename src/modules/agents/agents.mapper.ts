import type { ProjectSummaryRow as ProjectSummary } from '../projects/projects.repository';
import type { AgentRow, KeyRow, MintedKey } from './agent.types';
import type {
  AgentKeyResponse,
  AgentListItemResponse,
  AgentResponse,
  ManageableAgentResponse,
  MintedKeyResponse,
  ProjectSummaryResponse,
  WorkforceAgentResponse,
} from './agents.response';
import type { AgentCapability } from './agent-management.policy';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** Keeps only projects the caller can read (hidden projects are never named). */
export function visibleProjectIds(row: AgentRow, readable: 'all' | Set<string>): string[] {
  return readable === 'all' ? row.project_ids : row.project_ids.filter((id) => readable.has(id));
}

function projectSummaries(ids: string[], names: Map<string, ProjectSummary>): ProjectSummaryResponse[] {
  return ids.flatMap((id) => {
    const p = names.get(id);
    return p ? [{ id: p.id, name: p.name }] : [];
  });
}

export const toAgentResponse = (row: AgentRow, projectIds: string[]): AgentResponse => ({
  id: row.id,
  member_id: row.id,
  name: row.display_name,
  display_name: row.display_name,
  type: 'agent',
  role: row.role as AgentResponse['role'],
  scope: row.agent_scope,
  project_ids: projectIds,
  owner_member_id: row.owner_member_id,
  created_by_member_id: row.created_by_member_id,
  created_at: row.created_at.toISOString(),
});

export const toAgentListItem = (row: AgentRow, projectIds: string[]): AgentListItemResponse => ({
  ...toAgentResponse(row, projectIds),
  key_prefix: row.key_prefix,
});

export const toKeyResponse = (k: KeyRow): AgentKeyResponse => ({
  id: k.id,
  key_prefix: k.key_prefix,
  created_at: k.created_at.toISOString(),
  last_used_at: iso(k.last_used_at),
  revoked_at: iso(k.revoked_at),
});

export const toMintedKeyResponse = (k: MintedKey): MintedKeyResponse => ({
  key: { id: k.id, key_prefix: k.prefix, created_at: k.createdAt.toISOString() },
  apiKey: k.key,
  apiKeyId: k.id,
});

export const toManageableAgent = (row: AgentRow, projectIds: string[], names: Map<string, ProjectSummary>): ManageableAgentResponse => ({
  id: row.id,
  member_id: row.id,
  display_name: row.display_name,
  role: row.role as ManageableAgentResponse['role'],
  scope: row.agent_scope,
  project_ids: projectIds,
  projects: projectSummaries(projectIds, names),
  created_at: row.created_at.toISOString(),
  key_prefix: row.key_prefix,
  last_used_at: iso(row.key_last_used_at),
  activity_last_used_at: iso(row.activity_last_used_at),
});

export function toWorkforceAgent(
  row: AgentRow,
  projectIds: string[],
  names: Map<string, ProjectSummary>,
  capabilities: AgentCapability[],
  showKeyPrefix: boolean,
): WorkforceAgentResponse {
  const out: WorkforceAgentResponse = {
    id: row.id,
    display_name: row.display_name,
    avatar_url: row.avatar_url,
    role: row.role as WorkforceAgentResponse['role'],
    created_at: row.created_at.toISOString(),
    last_used_at: iso(row.activity_last_used_at),
    project_ids: projectIds,
    projects: projectSummaries(projectIds, names),
    owner:
      row.agent_scope === 'personal' && row.owner_member_id && row.owner_display_name
        ? { id: row.owner_member_id, display_name: row.owner_display_name }
        : null,
    scope: row.agent_scope,
    capabilities,
  };
  if (showKeyPrefix) out.key_prefix = row.key_prefix;
  return out;
}
