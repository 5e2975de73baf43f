import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { GithubConnectionsRepository } from '../../github-connections.repository';
import { connectionResponse } from '../../github.mapper';
import type { GithubConnectionListResponse } from '../../github.response';
import { ListConnectionsQuery } from './list-connections.query';

/** Owners and admins list the organization's connections (metadata only, never a secret). */
@QueryHandler(ListConnectionsQuery)
export class ListConnectionsHandler implements IQueryHandler<ListConnectionsQuery, GithubConnectionListResponse> {
  constructor(
    private readonly access: AccessPolicyService,
    private readonly connections: GithubConnectionsRepository,
  ) {}

  async execute({ actor }: ListConnectionsQuery): Promise<GithubConnectionListResponse> {
    this.access.assertOrgAdmin(actor);
    return { connections: (await this.connections.list(actor.orgId)).map(connectionResponse) };
  }
}
