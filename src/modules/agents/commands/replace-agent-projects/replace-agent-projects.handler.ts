import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { AgentManagementPolicy } from '../../agent-management.policy';
import { ProjectAccessRepository } from '../../../projects/project-access.repository';
import { AgentsRepository } from '../../agents.repository';
import type { AgentEnvelope } from '../../agents.response';
import { toAgentResponse, visibleProjectIds } from '../../agents.mapper';
import { ReplaceAgentProjectsCommand } from './replace-agent-projects.command';
import { TxRunner } from '../../../../database/tx-runner';

/**
 * Replaces a project-scoped agent's project entries. The caller needs `admin` access on every project
 * added and every project removed; projects kept are untouched (their access level stays). Takes
 * effect on the agent's next request (no key rotation).
 */
@CommandHandler(ReplaceAgentProjectsCommand)
export class ReplaceAgentProjectsHandler implements ICommandHandler<ReplaceAgentProjectsCommand, AgentEnvelope> {
  constructor(
    private readonly tx: TxRunner,
    private readonly access: AccessPolicyService,
    private readonly policy: AgentManagementPolicy,
    private readonly agents: AgentsRepository,
    private readonly projectAccess: ProjectAccessRepository,
  ) {}

  async execute({ actor, agentId, projectIds }: ReplaceAgentProjectsCommand): Promise<AgentEnvelope> {
    this.access.assertHuman(actor, 'Only humans can change an agent’s projects');
    if (projectIds === undefined) throw Errors.validation('projectIds is required');
    const wanted = [...new Set(projectIds.map((id) => id.toLowerCase()))];
    if (!wanted.length) throw Errors.validation('projectIds must name at least one project (revoke the agent to remove all access)');

    // Authorization on a snapshot (outside the transaction: access checks use their own connections),
    // then the write re-checks under the row lock that the snapshot is still current.
    const before = await this.policy.assertManageable(actor, await this.agents.findOne(actor.orgId, agentId));
    if (before.agent_scope !== 'project') throw Errors.validation('Only project-scoped agents have a replaceable project list');
    const current = new Set(before.project_ids);
    const added = wanted.filter((id) => !current.has(id));
    const removed = before.project_ids.filter((id) => !wanted.includes(id));
    const touched = [...added, ...removed];
    for (const id of touched) await this.access.assertProjectRead(actor, id);
    for (const id of touched) await this.access.assertProjectWrite(actor, id, 'admin');

    const row = await this.tx.run(async (m) => {
      await this.access.lockCallerRole(actor, m);
      await this.agents.lock(actor.orgId, agentId, m);
      const agent = (await this.agents.findOne(actor.orgId, agentId, m))!;
      if ([...agent.project_ids].sort().join() !== [...before.project_ids].sort().join()) {
        throw Errors.conflict('The agent’s projects changed concurrently; retry the request');
      }
      if (removed.length) {
        await this.projectAccess.removeMemberFrom(actor.orgId, agentId, removed, m);
      }
      if (added.length) {
        const ins = await this.projectAccess.grantEditIfMissing(actor.orgId, agentId, added, m);
        if (ins.length !== added.length) throw Errors.notFound('Project not found'); // deleted meanwhile
      }
      await this.agents.touch(actor.orgId, agentId, m);
      return (await this.agents.findOne(actor.orgId, agentId, m))!;
    });
    const readable = await this.access.readableProjects(actor);
    return { agent: toAgentResponse(row, visibleProjectIds(row, readable === 'all' ? 'all' : new Set(readable))) };
  }
}
