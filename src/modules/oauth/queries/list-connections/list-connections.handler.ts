import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { OAuthRepository } from '../../oauth.repository';
import { ListConnectionsQuery } from './list-connections.query';

/** Newest first (at most 200), each with its client, resource and consented agents (`profile_ref`, agent and organization ids). No tokens. */
@QueryHandler(ListConnectionsQuery)
export class ListConnectionsHandler implements IQueryHandler<ListConnectionsQuery, { connections: Array<Record<string, unknown>> }> {
  constructor(private readonly repo: OAuthRepository) {}

  async execute({ userId }: ListConnectionsQuery): Promise<{ connections: Array<Record<string, unknown>> }> {
    const rows = await this.repo.connections(userId);
    return {
      connections: rows.map((r) => ({
        id: r.id,
        client: { client_id: r.client_id, client_name: r.client_name },
        resource: r.resource,
        scope: r.scope,
        created_at: r.created_at,
        last_used_at: r.last_used_at,
        agents: r.agents.map((a) => ({ profile_ref: a.profile_ref, agent_id: a.agent_id, organization_id: a.org_id })),
      })),
    };
  }
}
