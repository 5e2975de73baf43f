import { IsOptional, IsString, IsUUID, Length, MaxLength } from 'class-validator';
import { Alias } from '../../../../common/http/aliases';

/** Create an execution. Actor provenance (who created it) is derived by the server. */
export class CreateExecutionDto {
  /** The issue the agent works on (UUID) */
  @IsUUID('all', { message: 'issue_id must be a UUID' })
  @Alias('issueId')
  issue_id!: string;

  /** The agent member doing the work (a live agent of the organization that can read the issue) */
  @IsUUID('all', { message: 'agent_member_id must be a UUID' })
  @Alias('agentMemberId')
  agent_member_id!: string;

  /** 1..200 characters; the same key and body answer the original result, another body 409 */
  @IsString()
  @Length(1, 200)
  @Alias('idempotencyKey')
  idempotency_key!: string;

  /** Harness kind (e.g. `codex`), at most 64 characters; credentials, tokens and local paths are refused */
  @IsOptional()
  @IsString()
  @Alias('harnessKind')
  harness_kind?: string;

  /** External run id, at most 200 characters; credentials, tokens and local paths are refused */
  @IsOptional()
  @IsString()
  @Alias('externalRunId')
  external_run_id?: string;

  /** Why the work was started, at most 2000 characters */
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  reason?: string;

  /** At most 4000 characters */
  @IsOptional()
  @IsString()
  @MaxLength(4000)
  summary?: string;
}
