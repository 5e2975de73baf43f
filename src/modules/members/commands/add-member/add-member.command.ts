import type { Actor } from '../../../../common/auth/principal';
import type { OrgRole } from '../../entities/member.entity';

export class AddMemberCommand {
  constructor(
    readonly actor: Actor,
    readonly email: string,
    readonly role: OrgRole,
  ) {}
}
