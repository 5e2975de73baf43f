import { IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { Alias } from '../../../../common/http/aliases';

export class UpdateMemberDto {
  /** New display name (the member themself, or owners and admins) */
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  @Alias('displayName')
  display_name?: string;

  /** New role (owners and admins; only owners grant or remove `owner`) */
  @IsOptional()
  @IsIn(['owner', 'admin', 'member', 'guest'])
  role?: 'owner' | 'admin' | 'member' | 'guest';
}
