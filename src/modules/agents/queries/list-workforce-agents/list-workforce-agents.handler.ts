import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ProjectsRepository } from '../../../projects/projects.repository';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { AgentManagementPolicy, agentAsActor, capabilitiesOf } from '../../agent-management.policy';
import { type AgentFilter, AgentsRepository } from '../../agents.repository';
import type { AgentRow } from '../../agent.types';
import type { WorkforceListResponse } from '../../agents.response';
import { toWorkforceAgent, visibleProjectIds } from '../../agents.mapper';
import { ListWorkforceAgentsQuery } from './list-workforce-agents.query';

/**
 * Read-only workforce projection (human callers only).
 *
 * Visibility:
 * - with `projectId`: the caller needs `admin` access to that project (unreadable: 404; readable
 *   without admin: 403) and sees every agent with effective access to it (as AccessPolicyService
 *   computes it for the agent: role baseline, explicit entries, a personal agent's owner's access);
 * - without a filter: organization owners and admins see every agent; everyone else only the agents
 *   they created or personally own.
 * Seeing an agent grants no authority over it: `key_prefix` appears only on rows whose keys the
 * caller may manage now (AgentManagementPolicy: a creator who lost that authority still sees the row).
 */
@QueryHandler(ListWorkforceAgentsQuery)
export class ListWorkforceAgentsHandler implements IQueryHandler<ListWorkforceAgentsQuery, WorkforceListResponse> {
  constructor(
    private readonly access: AccessPolicyService,
    private readonly policy: AgentManagementPolicy,
    private readonly agents: AgentsRepository,
    private readonly projects: ProjectsRepository,
  ) {}

  async execute({ actor, projectId, page }: ListWorkforceAgentsQuery): Promise<WorkforceListResponse> {
    this.access.assertHuman(actor, 'The workforce view needs a human web session');
    let rows: AgentRow[];
    let total: number;
    if (projectId) {
      await this.access.assertProjectWrite(actor, projectId, 'admin');
      const all = await this.agents.find(actor.orgId, { kind: 'all' });
      const withAccess: AgentRow[] = [];
      for (const r of all) {
        if (await this.access.levelFor(agentAsActor(actor.orgId, r), projectId)) withAccess.push(r);
      }
      total = withAccess.length;
      rows = withAccess.slice(page.offset, page.offset + page.limit);
    } else {
      // interface.md: without a projectId filter, only agents the caller created or personally owns (whatever the role).
      const filter: AgentFilter = { kind: 'createdOrOwnedBy', memberId: actor.memberId };
      [rows, total] = await Promise.all([this.agents.find(actor.orgId, filter, page), this.agents.count(actor.orgId, filter)]);
    }

    const readable = await this.access.readableProjects(actor);
    const visible = readable === 'all' ? ('all' as const) : new Set(readable);
    const ids = rows.map((r) => visibleProjectIds(r, visible));
    const names = await this.projects.summaries(actor.orgId, ids.flat());
    const agents = [];
    for (const [i, r] of rows.entries()) {
      const capabilities = capabilitiesOf(r, await this.access.projectAccess(agentAsActor(actor.orgId, r)), visible);
      agents.push(
        toWorkforceAgent(
          r,
          ids[i].filter((id) => names.has(id)),
          names,
          capabilities,
          await this.policy.canManage(actor, r),
        ),
      );
    }
    const nextOffset = page.offset + rows.length < total ? page.offset + rows.length : null;
    return { agents, total, limit: page.limit, offset: page.offset, nextOffset, truncated: nextOffset !== null };
  }
}
