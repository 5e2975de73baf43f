import type { HumanPrincipal } from '../../../../common/auth/principal';

export class CreateOrganizationCommand {
  constructor(
    readonly principal: HumanPrincipal,
    readonly name: string,
    readonly issuePrefix: string | undefined,
  ) {}
}
