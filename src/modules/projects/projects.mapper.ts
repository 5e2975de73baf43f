import type { AccessLevel } from './entities/project-member.entity';
import type { BoardColumnEntity } from './entities/board-column.entity';
import type { BoardViewEntity } from './entities/board-view.entity';
import type { CustomViewEntity } from './entities/custom-view.entity';
import type { ProjectEntity } from './entities/project.entity';
import type { ProjectMemberRow, ProjectTeamRow } from './project-access.repository';
import type {
  BoardColumnResponse,
  BoardViewResponse,
  CustomViewResponse,
  CustomViewSortResponse,
  ProjectMemberResponse,
  ProjectResponse,
  ProjectTeamResponse,
} from './projects.response';

const iso = (d: Date | string): string => (d instanceof Date ? d : new Date(d)).toISOString();

export const toProjectResponse = (p: ProjectEntity, accessLevel: AccessLevel): ProjectResponse => ({
  id: p.id,
  org_id: p.orgId,
  name: p.name,
  key: p.key,
  slug: p.slug,
  description: p.description,
  color: p.color,
  icon: p.icon,
  status: p.status,
  access_level: accessLevel,
  created_at: iso(p.createdAt),
  updated_at: iso(p.updatedAt),
});

export const toProjectMemberResponse = (r: ProjectMemberRow): ProjectMemberResponse => ({
  member_id: r.member_id,
  memberId: r.member_id,
  access_level: r.access_level,
  accessLevel: r.access_level,
  display_name: r.display_name,
  type: r.type,
  role: r.role,
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
});

export const toProjectTeamResponse = (r: ProjectTeamRow): ProjectTeamResponse => ({
  id: r.team_id,
  team_id: r.team_id,
  teamId: r.team_id,
  name: r.name,
  slug: r.slug,
  created_at: iso(r.created_at),
});

export const toBoardColumnResponse = (c: BoardColumnEntity, issueCount: number, releaseReferenceCount: number): BoardColumnResponse => ({
  id: c.id,
  project_id: c.projectId,
  key: c.key,
  label: c.label,
  description: c.description,
  color: c.color,
  position: c.position,
  recommendation_role: c.recommendationRole ?? null,
  issue_count: issueCount,
  release_reference_count: releaseReferenceCount,
  created_at: iso(c.createdAt),
  updated_at: iso(c.updatedAt),
});

export const toBoardViewResponse = (v: BoardViewEntity, columnIds: string[]): BoardViewResponse => ({
  id: v.id,
  project_id: v.projectId,
  name: v.name,
  is_default: v.isDefault,
  column_ids: columnIds,
  created_at: iso(v.createdAt),
  updated_at: iso(v.updatedAt),
});

export const toCustomViewResponse = (v: CustomViewEntity): CustomViewResponse => ({
  id: v.id,
  project_id: v.projectId,
  name: v.name,
  filters: v.filters ?? {},
  sort: (v.sort as CustomViewSortResponse | null) ?? null,
  display_mode: v.displayMode as CustomViewResponse['display_mode'],
  color: v.color,
  icon: v.icon,
  is_default: v.isDefault,
  created_by_member_id: v.createdByMemberId,
  created_at: iso(v.createdAt),
  updated_at: iso(v.updatedAt),
});
