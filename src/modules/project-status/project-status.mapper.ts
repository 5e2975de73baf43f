import type { ProjectHealthRow, StatusUpdateRow } from './project-status.repository';
import type { ProjectHealthItem, StatusUpdateResponse } from './project-status.response';

export const toStatusUpdateResponse = (u: StatusUpdateRow): StatusUpdateResponse => ({
  id: u.id,
  project_id: u.project_id,
  status: u.status,
  summary: u.summary,
  author_id: u.author_member_id,
  author: u.author_member_id && u.author_display_name ? { id: u.author_member_id, display_name: u.author_display_name, type: u.author_type ?? 'human' } : null,
  created_at: new Date(u.created_at).toISOString(),
});

export const toProjectHealthItem = (r: ProjectHealthRow): ProjectHealthItem => ({
  project_id: r.project_id,
  project_name: r.project_name,
  project_key: r.project_key,
  status: r.u_status,
  latest_update: r.u_id
    ? toStatusUpdateResponse({
        id: r.u_id,
        project_id: r.project_id,
        status: r.u_status!,
        summary: r.u_summary!,
        author_member_id: r.u_author_member_id,
        author_display_name: r.u_author_display_name,
        author_type: r.u_author_type,
        created_at: r.u_created_at!,
      })
    : null,
});
