import { ArrayMaxSize, IsArray, IsInt, IsOptional, IsString, Length, Min } from 'class-validator';
import { Alias } from '../../../../common/http/aliases';

/** The requesting agent asks a human; the execution enters `needs_human` until resolved or cancelled. */
export class CreateAttentionDto {
  /** 1..200 characters */
  @IsString()
  @Length(1, 200)
  @Alias('idempotencyKey')
  idempotency_key!: string;

  /** 1..200 characters */
  @IsString()
  @Length(1, 200)
  title!: string;

  /** 1..4000 characters */
  @IsString()
  @Length(1, 4000)
  question!: string;

  /** Up to 10 suggested answers, each 1..200 characters */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10)
  @IsString({ each: true })
  @Length(1, 200, { each: true })
  options?: string[];

  /** Optional fence on the execution's state_version */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Alias('expectedStateVersion')
  expected_state_version?: number;
}
