import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { ACCESS_LEVELS, type AccessLevel } from '../../entities/project-member.entity';

export class AddProjectMemberDto {
  /** Member id (an active member of the organization) */
  @IsOptional()
  @IsUUID('all', { message: 'memberId must be a UUID' })
  memberId?: string;

  /** Alias of memberId */
  @IsOptional()
  @IsUUID('all', { message: 'member_id must be a UUID' })
  member_id?: string;

  /** `view`, `edit` or `admin`; default `edit` */
  @IsOptional()
  @IsIn(ACCESS_LEVELS, { message: 'accessLevel must be one of view, edit, admin' })
  accessLevel?: AccessLevel;

  /** Alias of accessLevel */
  @IsOptional()
  @IsIn(ACCESS_LEVELS, { message: 'access_level must be one of view, edit, admin' })
  access_level?: AccessLevel;
}
