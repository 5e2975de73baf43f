import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ProjectsRepository } from '../../../projects/projects.repository';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { listResponse } from '../../../../common/http/list';
import { AgentManagementPolicy } from '../../agent-management.policy';
import { AgentsRepository } from '../../agents.repository';
import type { AgentRow } from '../../agent.types';
import { toManageableAgent, visibleProjectIds } from '../../agents.mapper';
import { ListManageableAgentsQuery } from './list-manageable-agents.query';

/**
 * Agents the caller may manage now (AgentManagementPolicy), with key usage: `key_prefix` and
 * `last_used_at` of the selected (newest active) key and `activity_last_used_at` over all active keys.
 * Project ids and names are limited to projects the caller can read. Owners and admins page in SQL;
 * anyone else gets the agents they created or own that they may still manage (a bounded set:
 * the plan limits agents), paged after the policy's filter.
 */
@QueryHandler(ListManageableAgentsQuery)
export class ListManageableAgentsHandler implements IQueryHandler<ListManageableAgentsQuery, Record<string, unknown>> {
  constructor(
    private readonly access: AccessPolicyService,
    private readonly policy: AgentManagementPolicy,
    private readonly agents: AgentsRepository,
    private readonly projects: ProjectsRepository,
  ) {}

  async execute({ actor, page }: ListManageableAgentsQuery): Promise<Record<string, unknown>> {
    let rows: AgentRow[];
    let total: number;
    if (actor.isHuman && actor.isOwnerOrAdmin) {
      [rows, total] = await Promise.all([this.agents.find(actor.orgId, { kind: 'all' }, page), this.agents.count(actor.orgId, { kind: 'all' })]);
    } else {
      const mine = actor.isHuman ? await this.agents.find(actor.orgId, { kind: 'createdOrOwnedBy', memberId: actor.memberId }) : [];
      const manageable = await this.policy.manageableAmong(actor, mine);
      total = manageable.length;
      rows = manageable.slice(page.offset, page.offset + page.limit);
    }
    const readable = await this.access.readableProjects(actor);
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
