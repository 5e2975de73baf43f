import { IsInt, IsOptional, IsString, Length, Min } from 'class-validator';
import { Alias } from '../../../../common/http/aliases';

/** The requesting agent's receipt of a resolved answer (never resumes the execution). */
export class AcknowledgeAttentionDto {
  /** The item's current version; stale is 409 STALE_ATTENTION_VERSION */
  @IsInt()
  @Min(1)
  @Alias('expectedVersion', 'expected_attention_version')
  expected_version!: number;

  /** Optional; the same key and body answer the original result, another body 409 */
  @IsOptional()
  @IsString()
  @Length(1, 200)
  @Alias('idempotencyKey')
  idempotency_key?: string;
}
