import { IsInt, IsOptional, IsString, Length, MaxLength, Min } from 'class-validator';
import { Alias } from '../../../../common/http/aliases';

/**
 * A generic move. `to_state`: `running`, `waiting`, `completed`, `failed`, `cancelled` (see the
 * state machine in the route description); `needs_human` is refused with
 * `ATTENTION_CONTRACT_REQUIRED` (use the attention routes).
 */
export class TransitionExecutionDto {
  /** The state_version the caller last read; a stale one is 409 STALE_STATE_VERSION */
  @IsInt()
  @Min(1)
  @Alias('expectedStateVersion')
  expected_state_version!: number;

  @IsString()
  @MaxLength(50)
  @Alias('toState')
  to_state!: string;

  /** 1..200 characters */
  @IsString()
  @Length(1, 200)
  @Alias('idempotencyKey')
  idempotency_key!: string;

  /** At most 2000 characters */
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  reason?: string;

  /** At most 4000 characters */
  @IsOptional()
  @IsString()
  @MaxLength(4000)
  summary?: string;

  /** At most 4000 characters (completed) */
  @IsOptional()
  @IsString()
  @MaxLength(4000)
  outcome?: string;

  /** At most 2000 characters (failed) */
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  failure?: string;
}
