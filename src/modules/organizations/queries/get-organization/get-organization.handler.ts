import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { Errors } from '../../../../common/errors/domain-error';
import { OrganizationEntity } from '../../entities/organization.entity';
import { toOrganizationResponse } from '../../organization.mapper';
import type { OrganizationResponse } from '../../organizations.response';
import { GetOrganizationQuery } from './get-organization.query';

@QueryHandler(GetOrganizationQuery)
export class GetOrganizationHandler implements IQueryHandler<GetOrganizationQuery, OrganizationResponse> {
  constructor(private readonly db: DataSource) {}

  async execute({ actor }: GetOrganizationQuery): Promise<OrganizationResponse> {
    const org = await this.db.getRepository(OrganizationEntity).findOneBy({ id: actor.orgId });
    if (!org) throw Errors.notFound();
    return toOrganizationResponse(org, actor.role);
  }
}
