import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { listResponse } from '../../../../common/http/list';
import { AgentsRepository } from '../../agents.repository';
import { toAgentListItem, visibleProjectIds } from '../../agents.mapper';
import { ListAgentsQuery } from './list-agents.query';

/** Every active agent of the organization (owners and admins only), with the newest active key's prefix. */
@QueryHandler(ListAgentsQuery)
export class ListAgentsHandler implements IQueryHandler<ListAgentsQuery, Record<string, unknown>> {
  constructor(
    private readonly access: AccessPolicyService,
    private readonly agents: AgentsRepository,
  ) {}

  async execute({ actor, page }: ListAgentsQuery): Promise<Record<string, unknown>> {
    this.access.assertOrgAdmin(actor, 'Only organization owners and admins can list agents');
    const [rows, total, readable] = await Promise.all([
      this.agents.find(actor.orgId, { kind: 'all' }, page),
      this.agents.count(actor.orgId, { kind: 'all' }),
      this.access.readableProjects(actor),
    ]);
    const visible = readable === 'all' ? 'all' : new Set(readable);
    return listResponse(
      'agents',
      rows.map((r) => toAgentListItem(r, visibleProjectIds(r, visible))),
      total,
      page,
    );
  }
}
