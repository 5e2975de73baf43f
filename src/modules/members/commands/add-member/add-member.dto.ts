import { IsEmail, IsIn, IsOptional, MaxLength } from 'class-validator';

export class AddMemberDto {
  /** Email of an existing account */
  @IsEmail({}, { message: 'email must be a valid email address' })
  @MaxLength(320)
  email: string;

  /** `owner`, `admin`, `member` (default) or `guest`; only owners may add owners */
  @IsOptional()
  @IsIn(['owner', 'admin', 'member', 'guest'])
  role?: 'owner' | 'admin' | 'member' | 'guest';
}
