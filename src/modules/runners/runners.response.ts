import { ApiProperty } from '@nestjs/swagger';

/** A runner installation as its agent and its managers see it: no API key, profile name, prompt, process id or local path. */
export class RunnerResponse {
  @ApiProperty() id!: string;
  @ApiProperty() agent_member_id!: string;
  @ApiProperty({ type: String, nullable: true }) agent_display_name!: string | null;
  @ApiProperty({ description: 'Derived from the closed platform and arch values' }) display_name!: string;
  @ApiProperty() instance_id!: string;
  @ApiProperty({ type: String, nullable: true, description: 'Host routing identity (at most 255 characters)' }) host_id!: string | null;
  @ApiProperty({ enum: ['darwin', 'linux', 'windows'] }) platform!: string;
  @ApiProperty({ enum: ['arm64', 'x64', 'amd64'] }) arch!: string;
  @ApiProperty({ type: [String], description: 'Unique values from codex, git' }) capabilities!: string[];
  @ApiProperty({ description: 'Numeric semantic version' }) clientVersion!: string;
  @ApiProperty({ enum: ['connected', 'stale', 'offline'], description: 'stale after 10 minutes without refresh; offline after DELETE' })
  presence_state!: string;
  @ApiProperty({ enum: ['active', 'paused'], description: 'Server-owned; humans change it with PATCH …/intake' }) intake_state!: string;
  @ApiProperty() last_seen_at!: string;
  @ApiProperty({ type: String, nullable: true }) disconnected_at!: string | null;
  @ApiProperty() created_at!: string;
  @ApiProperty() updated_at!: string;
}

export class RunnerEnvelope {
  @ApiProperty({ type: RunnerResponse }) runner!: RunnerResponse;
}

export class RunnerDisconnectResponse {
  @ApiProperty() success!: boolean;
  @ApiProperty({ type: RunnerResponse, nullable: true }) runner!: RunnerResponse | null;
}

export class RunnerListResponse {
  @ApiProperty({ type: [RunnerResponse] }) runners!: RunnerResponse[];
  @ApiProperty() total!: number;
}

export class LeaseResponse {
  @ApiProperty() id!: string;
  @ApiProperty() issue_id!: string;
  @ApiProperty() agent_member_id!: string;
  @ApiProperty() runner_id!: string;
  @ApiProperty({ type: String, nullable: true, description: 'The linked execution (harness_kind service_local_runner, external_run_id = lease id)' })
  execution_id!: string | null;
  @ApiProperty({
    enum: ['ordinary', 'human_attention', 'attention_resume'],
    description:
      'attention_resume: resumes a thread from an attention notification; human_attention: resumes a waiting execution after its attention request was answered',
  })
  claim_kind!: string;
  @ApiProperty({ type: String, nullable: true, description: 'The resolved attention item a human_attention lease resumes' }) attention_item_id!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The attention notification an attention lease consumed (unread at claim; a replay after the lease ended acknowledges it)',
  })
  notification_id!: string | null;
  @ApiProperty({ enum: ['active', 'uncertain', 'completed', 'failed', 'aborted', 'orphaned', 'expired', 'replaced', 'acknowledged'] }) state!: string;
  @ApiProperty({ enum: ['pre_intent', 'intent_persisted', 'started', 'model_completed'] }) phase!: string;
  @ApiProperty({ type: String, nullable: true }) progress!: string | null;
  @ApiProperty({ type: String, nullable: true }) error_code!: string | null;
  @ApiProperty({ description: 'Fencing generation: increases with every claim of the issue' }) claim_generation!: number;
  @ApiProperty({ description: 'Starts at 0; each accepted write sends the next one' }) sequence!: number;
  @ApiProperty() expires_at!: string;
  @ApiProperty() created_at!: string;
  @ApiProperty() updated_at!: string;
  @ApiProperty({ type: String, nullable: true }) ended_at!: string | null;
}

export class LeaseClaimResponse {
  @ApiProperty({ type: LeaseResponse }) lease!: LeaseResponse;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Ephemeral token, returned once (only its SHA-256 is stored); null on replays that do not reissue',
  })
  token!: string | null;
  @ApiProperty() token_reissued!: boolean;
  @ApiProperty({
    required: false,
    description: "Present (true) on the replay of an attention claim whose lease ended: the replay's only effect is acknowledging the lease's notification",
  })
  notification_acknowledged?: boolean;
}

export class LeaseEnvelope {
  @ApiProperty({ type: LeaseResponse }) lease!: LeaseResponse;
}
