import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Errors } from '../../../../common/errors/domain-error';
import { OrganizationsRepository } from '../../organizations.repository';
import { toOrganizationResponse } from '../../organization.mapper';
import type { OrganizationResponse } from '../../organizations.response';
import { GetOrganizationQuery } from './get-organization.query';

@QueryHandler(GetOrganizationQuery)
export class GetOrganizationHandler implements IQueryHandler<GetOrganizationQuery, OrganizationResponse> {
  constructor(private readonly organizations: OrganizationsRepository) {}

  async execute({ actor }: GetOrganizationQuery): Promise<OrganizationResponse> {
    const org = await this.organizations.findById(actor.orgId);
    if (!org) throw Errors.notFound();
    return toOrganizationResponse(org, actor.role);
  }
}
