import { IsIn, IsOptional, MaxLength } from 'class-validator';
import { IsEmailAddress } from '../../../../common/http/input';

export class AddMemberDto {
  /** Email of an existing account */
  @IsEmailAddress()
  @MaxLength(320)
  email: string;

  /** `owner`, `admin`, `member` (default) or `guest`; only owners may add owners */
  @IsOptional()
  @IsIn(['owner', 'admin', 'member', 'guest'])
  role?: 'owner' | 'admin' | 'member' | 'guest';
}
