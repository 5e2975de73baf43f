export class ProjectResponse {
  id: string;
  org_id: string;
  name: string;
  /** Issue prefix of the project (e.g. `WEB` gives `WEB-12`) */
  key: string;
  /** URL slug, unique in the organization */
  slug: string;
  description: string | null;
  /** Hex color `#rrggbb` */
  color: string | null;
  icon: string | null;
  /** `active` or `archived` */
  status: 'active' | 'archived';
  /** The caller's effective access to this project: `view`, `edit` or `admin` */
  access_level: 'view' | 'edit' | 'admin';
  created_at: string;
  updated_at: string;
}
export class ProjectEnvelope {
  project: ProjectResponse;
}
/** Legacy list shape (default); `shape=envelope` gives `{ resource, items, total, limit, offset, nextOffset, truncated, hint }` */
export class ProjectListResponse {
  projects: ProjectResponse[];
  total: number;
  limit: number;
  offset: number;
}

export class ProjectMemberResponse {
  /** Member id */
  member_id: string;
  /** Same as member_id (camelCase spelling for older clients) */
  memberId: string;
  /** `view`, `edit` or `admin` */
  access_level: 'view' | 'edit' | 'admin';
  /** Same as access_level (camelCase spelling for older clients) */
  accessLevel: 'view' | 'edit' | 'admin';
  display_name: string;
  /** `human` or `agent` */
  type: 'human' | 'agent';
  /** Organization role of the member */
  role: 'owner' | 'admin' | 'member' | 'guest';
  created_at: string;
  updated_at: string;
}
export class ProjectMemberEnvelope {
  member: ProjectMemberResponse;
}
export class ProjectMemberListResponse {
  members: ProjectMemberResponse[];
}

export class ProjectTeamResponse {
  /** Team id */
  id: string;
  /** Same as id */
  team_id: string;
  /** Same as id (camelCase spelling) */
  teamId: string;
  name: string;
  slug: string;
  /** When the team was assigned to the project */
  created_at: string;
}
export class ProjectTeamEnvelope {
  team: ProjectTeamResponse;
}
export class ProjectTeamListResponse {
  teams: ProjectTeamResponse[];
}

export class BoardColumnResponse {
  id: string;
  project_id: string;
  /** Status value of issues in this column */
  key: string;
  label: string;
  /** Stage criteria or agent guidance (Markdown or plain text); null means none */
  description: string | null;
  color: string | null;
  /** 0-based order on the board */
  position: number;
  /** Workflow role for recommendations: `candidate`, `active` or `excluded`; null = not configured (never recommended from) */
  recommendation_role: 'candidate' | 'active' | 'excluded' | null;
  /** Issues of the project whose status is this column's key */
  issue_count: number;
  /** Dependencies whose release point is this column (deleting the column detaches them) */
  release_reference_count: number;
  created_at: string;
  updated_at: string;
}
export class BoardColumnEnvelope {
  column: BoardColumnResponse;
}
export class BoardColumnListResponse {
  /** In position order */
  columns: BoardColumnResponse[];
  /** Statuses issues of this project may take: the column keys in position order, then `cancelled` */
  accepted_statuses: string[];
}
export class DeleteBoardColumnResponse {
  success: boolean;
  /** Issues moved to the `reassignTo` column */
  reassigned_issue_count: number;
}

export class BoardViewResponse {
  id: string;
  project_id: string;
  name: string;
  /** The project's default view (cannot be deleted) */
  is_default: boolean;
  /** Columns shown, in display order */
  column_ids: string[];
  created_at: string;
  updated_at: string;
}
export class BoardViewEnvelope {
  view: BoardViewResponse;
}
export class BoardViewListResponse {
  /** Every board column of the project, in position order */
  columns: BoardColumnResponse[];
  /** Default view first */
  views: BoardViewResponse[];
}

export class CustomViewSortResponse {
  /** `created_at`, `updated_at`, `priority`, `due_date`, `title` or `status` */
  field: string;
  /** `asc` or `desc` */
  direction: 'asc' | 'desc';
}
export class CustomViewResponse {
  id: string;
  project_id: string;
  name: string;
  /** Saved issue filters: status, priority, assignee, assigneeIds, labelIds, q, open, includeArchived, milestoneId, teamId */
  filters: Record<string, unknown>;
  sort: CustomViewSortResponse | null;
  /** `list`, `board` or `table` */
  display_mode: 'list' | 'board' | 'table';
  color: string | null;
  icon: string | null;
  /** Created with the project (cannot be deleted) */
  is_default: boolean;
  created_by_member_id: string | null;
  created_at: string;
  updated_at: string;
}
export class CustomViewEnvelope {
  view: CustomViewResponse;
  /** Same object as `view` */
  custom_view: CustomViewResponse;
}
export class CustomViewListResponse {
  views: CustomViewResponse[];
  /** Same array as `views` */
  custom_views: CustomViewResponse[];
}

export class ProjectsSuccessResponse {
  success: boolean;
}
