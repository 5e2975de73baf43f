import type { Actor } from '../../../../common/auth/principal';
import type { OrgRole } from '../../entities/member.entity';

export class UpdateMemberCommand {
  constructor(
    readonly actor: Actor,
    readonly memberId: string,
    readonly changes: { displayName?: string; role?: OrgRole },
  ) {}
}
