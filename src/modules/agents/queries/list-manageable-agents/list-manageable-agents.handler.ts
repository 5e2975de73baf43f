import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ProjectsRepository } from '../../../projects/projects.repository';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { listResponse } from '../../../../common/http/list';
import { type AgentFilter, AgentsRepository } from '../../agents.repository';
import { toManageableAgent, visibleProjectIds } from '../../agents.mapper';
import { ListManageableAgentsQuery } from './list-manageable-agents.query';

/**
 * Agents the caller may manage (see agent-management.policy.ts), with key usage: `key_prefix` and
 * `last_used_at` of the selected (newest active) key and `activity_last_used_at` over all active keys.
 * Project ids and names are limited to projects the caller can read.
 */
@QueryHandler(ListManageableAgentsQuery)
export class ListManageableAgentsHandler implements IQueryHandler<ListManageableAgentsQuery, Record<string, unknown>> {
  constructor(
    private readonly access: AccessPolicyService,
    private readonly agents: AgentsRepository,
    private readonly projects: ProjectsRepository,
  ) {}

  async execute({ actor, page }: ListManageableAgentsQuery): Promise<Record<string, unknown>> {
    // Same rule as canManageAgent(), expressed as a filter.
    const filter: AgentFilter = actor.isHuman && actor.isOwnerOrAdmin ? { kind: 'all' } : { kind: 'createdOrOwnedBy', memberId: actor.memberId };
    const [rows, total, readable] = await Promise.all([
      this.agents.find(actor.orgId, filter, page),
      this.agents.count(actor.orgId, filter),
      this.access.readableProjects(actor),
    ]);
    const visible = readable === 'all' ? 'all' : new Set(readable);
    const ids = rows.map((r) => visibleProjectIds(r, visible));
    const names = await this.projects.summaries(actor.orgId, ids.flat());
    return listResponse(
      'agents',
      rows.map((r, i) =>
        toManageableAgent(
          r,
          ids[i].filter((id) => names.has(id)),
          names,
        ),
      ),
      total,
      page,
    );
  }
}
