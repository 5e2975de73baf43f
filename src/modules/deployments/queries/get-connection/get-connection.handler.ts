import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { toConnectionResponse, toDeploymentResponse } from '../../deployments.mapper';
import { DeploymentsRepository } from '../../deployments.repository';
import type { DeploymentConnectionDetailEnvelope } from '../../deployments.response';
import { GetConnectionQuery } from './get-connection.query';

/** One connection (owners and admins) with the deployments its verified callbacks established. */
@QueryHandler(GetConnectionQuery)
export class GetConnectionHandler implements IQueryHandler<GetConnectionQuery, DeploymentConnectionDetailEnvelope> {
  constructor(
    private readonly access: AccessPolicyService,
    private readonly repo: DeploymentsRepository,
  ) {}

  async execute({ actor, connectionId }: GetConnectionQuery): Promise<DeploymentConnectionDetailEnvelope> {
    this.access.assertOrgAdmin(actor, 'Only organization owners and admins can manage deployment connections');
    const row = await this.repo.connection(actor.orgId, connectionId);
    if (!row) throw Errors.notFound('Deployment connection not found');
    const deployments = await this.repo.deployments(actor.orgId, connectionId);
    return { connection: { ...toConnectionResponse(row), deployments: deployments.map(toDeploymentResponse) } };
  }
}
