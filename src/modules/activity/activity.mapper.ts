/** Activity event row joined with the actor's current member record (`am_*`). */
export interface ActivityRow {
  id: string;
  action: string;
  issue_id: string | null;
  project_id: string | null;
  actor_member_id: string | null;
  metadata: Record<string, unknown> | null;
  created_at: Date;
  am_id: string | null;
  am_display_name: string | null;
  am_type: 'human' | 'agent' | null;
  am_avatar_url: string | null;
}

export function toActivityResponse(r: ActivityRow): Record<string, unknown> {
  return {
    id: r.id,
    action: r.action,
    issue_id: r.issue_id,
    project_id: r.project_id,
    actor_id: r.actor_member_id,
    actor: r.actor_member_id && r.am_id ? { id: r.am_id, display_name: r.am_display_name, type: r.am_type, avatar_url: r.am_avatar_url ?? null } : null,
    metadata: r.metadata ?? {},
    created_at: new Date(r.created_at).toISOString(),
  };
}
