import { IsIn, IsOptional, MaxLength } from 'class-validator';
import { IsEmailAddress, Trim } from '../../../../common/http/input';
import { INVITABLE_ROLES, type InvitableRole } from '../../entities/invitation.entity';

export class CreateInvitationDto {
  /** Email address to invite (trimmed). Whether an account has it is not disclosed: the answer is the same either way */
  @Trim()
  @IsEmailAddress()
  @MaxLength(320)
  email: string;

  /** `admin`, `member` (default) or `guest`. Owners are not invited: invite, then promote (PATCH the member) */
  @IsOptional()
  @IsIn(INVITABLE_ROLES, { message: 'role must be one of admin, member, guest (owners are made by promoting a member)' })
  role?: InvitableRole;
}
