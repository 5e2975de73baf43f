import { ApiProperty } from '@nestjs/swagger';

export class StatusUpdateAuthor {
  id: string;
  display_name: string;
  @ApiProperty({ enum: ['human', 'agent'] })
  type: string;
}

export class StatusUpdateResponse {
  id: string;
  project_id: string;
  @ApiProperty({ enum: ['on_track', 'at_risk', 'off_track'] })
  status: string;
  /** Sanitized HTML (the comment rules) */
  summary: string;
  /** The member who posted it; null when unknown */
  author_id: string | null;
  @ApiProperty({ type: StatusUpdateAuthor, nullable: true })
  author: StatusUpdateAuthor | null;
  created_at: string;
}
export class StatusUpdateEnvelope {
  status_update: StatusUpdateResponse;
}
export class StatusUpdateList {
  status_updates: StatusUpdateResponse[];
  total: number;
  limit: number;
  offset: number;
}

export class ProjectHealthItem {
  project_id: string;
  project_name: string;
  project_key: string;
  /** The latest status; null when the project has no status update */
  @ApiProperty({ enum: ['on_track', 'at_risk', 'off_track'], nullable: true })
  status: string | null;
  @ApiProperty({ type: StatusUpdateResponse, nullable: true, description: 'The latest status update; null when none' })
  latest_update: StatusUpdateResponse | null;
}
export class ProjectHealthResponse {
  /** Every project the caller can read, by name (none: empty) */
  projects: ProjectHealthItem[];
}
