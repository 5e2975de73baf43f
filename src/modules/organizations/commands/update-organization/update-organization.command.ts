import type { Actor } from '../../../../common/auth/principal';

export class UpdateOrganizationCommand {
  constructor(
    readonly actor: Actor,
    readonly changes: { name?: string; issuePrefix?: string },
  ) {}
}
