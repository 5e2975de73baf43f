import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { isUuid } from '../../../../common/http/validation';
import { TxRunner } from '../../../../database/tx-runner';
import { ProjectAccessRepository } from '../../../projects/project-access.repository';
import { AgentManagementPolicy } from '../../agent-management.policy';
import { toAgentResponse, visibleProjectIds } from '../../agents.mapper';
import { AgentsRepository } from '../../agents.repository';
import type { ProjectAgentsGranted } from '../../agents.response';
import { GrantProjectAgentsCommand } from './grant-project-agents.command';

/**
 * Gives selected agents `edit` access to one project (entries they already have keep their level).
 * A human caller with `admin` on the project (view/edit 403, unreadable 404) who may manage every
 * selected agent (an agent it may not manage: 404, nothing granted); personal agents inherit their
 * owner's access and cannot be granted (400). One transaction, agents locked in id order.
 */
@CommandHandler(GrantProjectAgentsCommand)
export class GrantProjectAgentsHandler implements ICommandHandler<GrantProjectAgentsCommand, ProjectAgentsGranted> {
  constructor(
    private readonly tx: TxRunner,
    private readonly access: AccessPolicyService,
    private readonly policy: AgentManagementPolicy,
    private readonly agents: AgentsRepository,
    private readonly projectAccess: ProjectAccessRepository,
  ) {}

  async execute({ actor, projectId, agentIds }: GrantProjectAgentsCommand): Promise<ProjectAgentsGranted> {
    this.access.assertHuman(actor, 'Only humans can grant agents access to a project');
    if (!isUuid(projectId)) throw Errors.notFound('Project not found');
    await this.access.assertProjectWrite(actor, projectId, 'admin');
    if (agentIds === undefined) throw Errors.validation('agentIds is required');
    const ids = [...new Set(agentIds.map((id) => id.toLowerCase()))].sort();
    if (!ids.length) throw Errors.validation('agentIds must name at least one agent');
    for (const id of ids) {
      const agent = await this.policy.assertManageable(actor, await this.agents.findOne(actor.orgId, id));
      if (agent.agent_scope === 'personal')
        throw Errors.validation('A personal agent acts with its owner’s access and cannot be granted a project', { agent_id: id });
    }
    const rows = await this.tx.run(async (m) => {
      await this.access.lockCallerRole(actor, m);
      for (const id of ids) await this.agents.lock(actor.orgId, id, m); // 404 when revoked meanwhile
      const out = [];
      for (const id of ids) {
        const granted = await this.projectAccess.grantEditIfMissing(actor.orgId, id, [projectId], m);
        if (granted.length) await this.agents.touch(actor.orgId, id, m);
        out.push((await this.agents.findOne(actor.orgId, id, m))!);
      }
      if (!(await this.access.levelFor(actor, projectId, m))) throw Errors.notFound('Project not found');
      return out;
    });
    const readable = await this.access.readableProjects(actor);
    const visible = readable === 'all' ? 'all' : new Set(readable);
    return { project_id: projectId, agents: rows.map((r) => toAgentResponse(r, visibleProjectIds(r, visible))) };
  }
}
