import { IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

export class UpdateMemberDto {
  /** New display name (the member themself, or owners and admins) */
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  display_name?: string;

  /** Alias of display_name */
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  displayName?: string;

  /** New role (owners and admins; only owners grant or remove `owner`) */
  @IsOptional()
  @IsIn(['owner', 'admin', 'member', 'guest'])
  role?: 'owner' | 'admin' | 'member' | 'guest';
}
