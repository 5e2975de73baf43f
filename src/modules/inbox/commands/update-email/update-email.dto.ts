import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, IsUUID, Max, MaxLength, Min, MinLength, ValidateIf } from 'class-validator';
import { Alias } from '../../../../common/http/aliases';
import { INBOX_CATEGORIES, INBOX_STATUSES, NOTE_MAX } from '../../inbox.constants';

export class UpdateEmailDto {
  /** `untriaged`, `triaged`, `action_required`, `waiting`, `resolved`, `ignored` or `quarantined` */
  @IsOptional()
  @IsIn(INBOX_STATUSES)
  status?: (typeof INBOX_STATUSES)[number];

  /** `support`, `security`, `sales`, `partnership`, `press`, `personal`, `spam`, `other`, or null to clear */
  @ApiProperty({ required: false, nullable: true, enum: INBOX_CATEGORIES, type: 'string' })
  @ValidateIf((_, v) => v !== null && v !== undefined)
  @IsIn(INBOX_CATEGORIES)
  category?: (typeof INBOX_CATEGORIES)[number] | null;

  /** 0 (urgent) through 4 (low), or null to clear */
  @ApiProperty({ required: false, nullable: true, type: 'integer', minimum: 0, maximum: 4 })
  @ValidateIf((_, v) => v !== null && v !== undefined)
  @IsInt()
  @Min(0)
  @Max(4)
  priority?: number | null;

  /** An operator note appended to the audit actions (never changes the message) */
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(NOTE_MAX)
  note?: string;

  /** An issue of the same organization the caller can read, or null to unlink */
  @ApiProperty({ required: false, nullable: true, type: 'string', format: 'uuid' })
  @Alias('linkedIssueId')
  @ValidateIf((_, v) => v !== null && v !== undefined)
  @IsUUID()
  linked_issue_id?: string | null;
}
