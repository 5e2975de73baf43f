import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { ACCESS_LEVELS, type AccessLevel } from '../../entities/project-member.entity';
import { Alias } from '../../../../common/http/aliases';

export class AddProjectMemberDto {
  /** Member id (an active member of the organization) */
  @IsOptional()
  @IsUUID('all', { message: 'memberId must be a UUID' })
  @Alias('member_id')
  memberId?: string;

  /** `view`, `edit` or `admin`; default `edit` */
  @IsOptional()
  @IsIn(ACCESS_LEVELS, { message: 'accessLevel must be one of view, edit, admin' })
  @Alias('access_level')
  accessLevel?: AccessLevel;
}
