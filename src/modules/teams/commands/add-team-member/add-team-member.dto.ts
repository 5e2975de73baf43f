import { IsOptional, IsUUID } from 'class-validator';
import { Alias } from '../../../../common/http/aliases';

/** Send `memberId` (or its alias `member_id`). */
export class AddTeamMemberDto {
  /** Id of an active member of the same organization (human or agent) */
  @IsOptional()
  @IsUUID('loose', { message: 'memberId must be a UUID' })
  @Alias('member_id')
  memberId?: string;
}
