import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { OrganizationsRepository } from '../../organizations.repository';
import { DeleteOrganizationCommand } from './delete-organization.command';
import { TxRunner } from '../../../../database/tx-runner';

/**
 * Owners only, from a human session; every tenant row goes with it (foreign keys cascade), and its
 * keys' entries of the global `api_key_lookup` in the same transaction.
 */
@CommandHandler(DeleteOrganizationCommand)
export class DeleteOrganizationHandler implements ICommandHandler<DeleteOrganizationCommand, void> {
  constructor(
    private readonly tx: TxRunner,
    private readonly organizations: OrganizationsRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor }: DeleteOrganizationCommand): Promise<void> {
    this.access.assertOrgOwner(actor, 'Only an organization owner can delete the organization');
    this.access.assertHuman(actor);
    await this.tx.run((m) => this.organizations.delete(actor.orgId, m));
  }
}
