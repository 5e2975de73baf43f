import { IsInt, IsOptional, IsString, Length, Min } from 'class-validator';
import { Alias } from '../../../../common/http/aliases';

/** A human with write access answers an open request. */
export class ResolveAttentionDto {
  /** 1..4000 characters */
  @IsString()
  @Length(1, 4000)
  answer!: string;

  /** The item's version the human read; stale is 409 STALE_ATTENTION_VERSION */
  @IsInt()
  @Min(1)
  @Alias('expectedVersion', 'expected_attention_version')
  expected_version!: number;

  /** Optional; the same key and body answer the original result */
  @IsOptional()
  @IsString()
  @Length(1, 200)
  @Alias('idempotencyKey')
  idempotency_key?: string;
}
