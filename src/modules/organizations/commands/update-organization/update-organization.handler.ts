import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { toOrganizationResponse } from '../../organization.mapper';
import { OrganizationsRepository } from '../../organizations.repository';
import type { OrganizationResponse } from '../../organizations.response';
import { UpdateOrganizationCommand } from './update-organization.command';

@CommandHandler(UpdateOrganizationCommand)
export class UpdateOrganizationHandler implements ICommandHandler<UpdateOrganizationCommand, OrganizationResponse> {
  constructor(
    private readonly organizations: OrganizationsRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, changes }: UpdateOrganizationCommand): Promise<OrganizationResponse> {
    this.access.assertOrgAdmin(actor);
    const org = await this.organizations.findById(actor.orgId);
    if (!org) throw Errors.notFound();
    if (changes.name !== undefined) org.name = changes.name;
    if (changes.issuePrefix !== undefined) org.issuePrefix = changes.issuePrefix;
    org.updatedAt = new Date();
    await this.organizations.update(org.id, { name: org.name, issuePrefix: org.issuePrefix, updatedAt: org.updatedAt });
    return toOrganizationResponse(org, actor.role);
  }
}
