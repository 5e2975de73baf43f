import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { toConnectionResponse } from '../../deployments.mapper';
import { DeploymentsRepository } from '../../deployments.repository';
import type { DeploymentConnectionListResponse } from '../../deployments.response';
import { ListConnectionsQuery } from './list-connections.query';

/** The organization's deployment connections (owners and admins), without credentials. */
@QueryHandler(ListConnectionsQuery)
export class ListConnectionsHandler implements IQueryHandler<ListConnectionsQuery, DeploymentConnectionListResponse> {
  constructor(
    private readonly access: AccessPolicyService,
    private readonly repo: DeploymentsRepository,
  ) {}

  async execute({ actor }: ListConnectionsQuery): Promise<DeploymentConnectionListResponse> {
    this.access.assertOrgAdmin(actor, 'Only organization owners and admins can manage deployment connections');
    return { connections: (await this.repo.listConnections(actor.orgId)).map(toConnectionResponse) };
  }
}
