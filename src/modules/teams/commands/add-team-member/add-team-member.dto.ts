import { IsOptional, IsUUID } from 'class-validator';

/** Send `memberId` (or its alias `member_id`). */
export class AddTeamMemberDto {
  /** Id of an active member of the same organization (human or agent) */
  @IsOptional()
  @IsUUID('loose', { message: 'memberId must be a UUID' })
  memberId?: string;

  /** Alias of memberId */
  @IsOptional()
  @IsUUID('loose', { message: 'member_id must be a UUID' })
  member_id?: string;
}
