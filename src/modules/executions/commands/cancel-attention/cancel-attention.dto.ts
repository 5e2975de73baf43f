import { IsInt, IsOptional, IsString, Length, Min } from 'class-validator';
import { Alias } from '../../../../common/http/aliases';

/** The requesting agent withdraws its open request; the execution returns to `waiting`. */
export class CancelAttentionDto {
  /** Optional fence on the item's version */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Alias('expectedVersion', 'expected_attention_version')
  expected_version?: number;

  /** Optional; the same key and body answer the original result */
  @IsOptional()
  @IsString()
  @Length(1, 200)
  @Alias('idempotencyKey')
  idempotency_key?: string;
}
