import type { Actor } from '../../../../common/auth/principal';

export class DeleteOrganizationCommand {
  constructor(readonly actor: Actor) {}
}
