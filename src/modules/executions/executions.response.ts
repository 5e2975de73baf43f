import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** Who did something: { id, display_name (nullable), type, deleted }. */
export class ActorProjection {
  @ApiProperty({ type: String, nullable: true }) id!: string | null;
  @ApiProperty({ type: String, nullable: true }) display_name!: string | null;
  @ApiProperty({ enum: ['human', 'agent'] }) type!: string;
  @ApiProperty() deleted!: boolean;
}

export class ExecutionTransitionResponse {
  @ApiProperty() id!: string;
  @ApiProperty({ type: String, nullable: true }) from_state!: string | null;
  @ApiProperty() to_state!: string;
  @ApiProperty({ description: 'The state_version this move produced' }) state_version!: number;
  @ApiProperty({ enum: ['create', 'transition', 'cancel', 'attention', 'runner'] }) via!: string;
  @ApiProperty({ type: String, nullable: true }) reason!: string | null;
  @ApiProperty({ type: ActorProjection, nullable: true }) actor!: ActorProjection | null;
  @ApiProperty() created_at!: string;
}

export class ExecutionEvidenceResponse {
  @ApiProperty() id!: string;
  @ApiProperty({ enum: ['issue', 'comment', 'artifact', 'pr_link', 'external_reference', 'attachment'] }) link_type!: string;
  @ApiProperty() target_id!: string;
  @ApiProperty({ type: ActorProjection, nullable: true }) created_by!: ActorProjection | null;
  @ApiProperty() created_at!: string;
}

export class ExecutionResponse {
  @ApiProperty() id!: string;
  @ApiProperty() issue_id!: string;
  @ApiProperty({ type: String, nullable: true, description: "The issue's current project: access follows it" }) current_project_id!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Provenance only; grants nothing' }) project_id_at_creation!: string | null;
  @ApiProperty({ enum: ['assigned', 'running', 'waiting', 'needs_human', 'completed', 'failed', 'cancelled'] }) state!: string;
  @ApiProperty({ description: 'Bumped by one on every move; transitions are fenced on it' }) state_version!: number;
  @ApiProperty({ type: String, nullable: true }) reason!: string | null;
  @ApiProperty({ type: String, nullable: true }) summary!: string | null;
  @ApiProperty({ type: String, nullable: true }) outcome!: string | null;
  @ApiProperty({ type: String, nullable: true }) failure!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Null when a stored legacy value is unsafe' }) harness_kind!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Null when a stored legacy value is unsafe' }) external_run_id!: string | null;
  @ApiProperty() agent_member_id!: string;
  @ApiProperty({ type: ActorProjection }) agent!: ActorProjection;
  @ApiProperty({ type: ActorProjection, nullable: true }) created_by!: ActorProjection | null;
  @ApiProperty() created_at!: string;
  @ApiProperty() updated_at!: string;
  @ApiProperty({ type: String, nullable: true }) ended_at!: string | null;
  @ApiPropertyOptional({ type: [ExecutionTransitionResponse], description: 'Detail only, in version order' }) transitions?: ExecutionTransitionResponse[];
  @ApiPropertyOptional({ type: [ExecutionEvidenceResponse], description: 'Detail only' }) evidence?: ExecutionEvidenceResponse[];
}

export class ExecutionEnvelope {
  @ApiProperty({ type: ExecutionResponse }) execution!: ExecutionResponse;
}

export class ExecutionListResponse {
  @ApiProperty({ type: [ExecutionResponse] }) executions!: ExecutionResponse[];
  @ApiProperty() total!: number;
  @ApiProperty() limit!: number;
  @ApiProperty() offset!: number;
}

export class EvidenceEnvelope {
  @ApiProperty({ type: ExecutionEvidenceResponse }) evidence!: ExecutionEvidenceResponse;
}

export class AttentionItemResponse {
  @ApiProperty() id!: string;
  @ApiProperty() execution_id!: string;
  @ApiProperty() issue_id!: string;
  @ApiProperty({ enum: ['open', 'resolved', 'cancelled'] }) state!: string;
  @ApiProperty({ description: 'Bumped on every change; resolve and acknowledge take it as expected_version' }) version!: number;
  @ApiProperty() title!: string;
  @ApiProperty() question!: string;
  @ApiProperty({ type: [String] }) options!: string[];
  @ApiProperty({ type: String, nullable: true }) answer!: string | null;
  @ApiProperty({ description: 'Resolved and not yet acknowledged by the requester' }) unread!: boolean;
  @ApiProperty({ type: ActorProjection, nullable: true }) requester!: ActorProjection | null;
  @ApiProperty({ type: ActorProjection, nullable: true }) resolved_by!: ActorProjection | null;
  @ApiProperty({ type: String, nullable: true }) resolved_at!: string | null;
  @ApiProperty({ type: String, nullable: true }) acknowledged_at!: string | null;
  @ApiProperty({ type: String, nullable: true }) cancelled_at!: string | null;
  @ApiProperty() created_at!: string;
  @ApiProperty() updated_at!: string;
}

export class AttentionEnvelope {
  @ApiProperty({ type: AttentionItemResponse }) attention_item!: AttentionItemResponse;
  @ApiPropertyOptional({ description: 'The execution after the change (state and version)' }) execution?: { id: string; state: string; state_version: number };
}

export class AttentionListResponse {
  @ApiProperty({ type: [AttentionItemResponse] }) attention_items!: AttentionItemResponse[];
  @ApiProperty() total!: number;
}
