import { IsInt, IsOptional, IsString, Length, MaxLength, Min } from 'class-validator';
import { Alias } from '../../../../common/http/aliases';

/** Cancel: any non-terminal state → `cancelled` (open attention requests are cancelled with it). */
export class CancelExecutionDto {
  /** Optional fence: when given it must be the current state_version */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Alias('expectedStateVersion')
  expected_state_version?: number;

  /** Optional; when given the same key and body answer the original result */
  @IsOptional()
  @IsString()
  @Length(1, 200)
  @Alias('idempotencyKey')
  idempotency_key?: string;

  /** At most 2000 characters */
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  reason?: string;
}
