import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { OrganizationsRepository } from '../../organizations.repository';
import { DeleteOrganizationCommand } from './delete-organization.command';

/** Owners only, from a human session; every tenant row goes with it (foreign keys cascade). */
@CommandHandler(DeleteOrganizationCommand)
export class DeleteOrganizationHandler implements ICommandHandler<DeleteOrganizationCommand, void> {
  constructor(
    private readonly organizations: OrganizationsRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor }: DeleteOrganizationCommand): Promise<void> {
    this.access.assertOrgOwner(actor, 'Only an organization owner can delete the organization');
    this.access.assertHuman(actor);
    await this.organizations.delete(actor.orgId);
  }
}
