export class MilestoneResponse {
  id: string;
  project_id: string;
  /** 1..200 characters, unique in the project case-insensitively */
  name: string;
  description: string | null;
  /** YYYY-MM-DD, or null */
  target_date: string | null;
  /** `planned`, `active`, `completed` or `cancelled` */
  status: 'planned' | 'active' | 'completed' | 'cancelled';
  /** Non-archived issues in the milestone */
  issue_count: number;
  created_at: string;
  updated_at: string;
}
export class MilestoneEnvelope {
  milestone: MilestoneResponse;
}
export class MilestoneListResponse {
  milestones: MilestoneResponse[];
}
export class MilestoneSuccessResponse {
  success: boolean;
}
