import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { PlanService } from '../../../../common/plan/plan.service';
import type { AgentScope, OrgRole } from '../../../../common/auth/roles';
import { ProjectAccessRepository } from '../../../projects/project-access.repository';
import { AgentsRepository } from '../../agents.repository';
import type { CreatedAgentResponse } from '../../agents.response';
import { toAgentResponse } from '../../agents.mapper';
import { CreateAgentCommand } from './create-agent.command';
import { TxRunner } from '../../../../database/tx-runner';

/**
 * Creates the agent's member row, its project entries (project-scoped agents) and its first key in
 * one transaction, after the plan check. The full key is returned once and never stored.
 */
@CommandHandler(CreateAgentCommand)
export class CreateAgentHandler implements ICommandHandler<CreateAgentCommand, CreatedAgentResponse> {
  constructor(
    private readonly tx: TxRunner,
    private readonly access: AccessPolicyService,
    private readonly plan: PlanService,
    private readonly agents: AgentsRepository,
    private readonly projectAccess: ProjectAccessRepository,
  ) {}

  async execute(cmd: CreateAgentCommand): Promise<CreatedAgentResponse> {
    const { actor } = cmd;
    this.access.assertHuman(actor, 'Only humans can create agents');
    const name = cmd.name.trim();
    if (!name) throw Errors.validation('name must not be blank');

    const projectIds =
      cmd.projectIds !== undefined || cmd.legacyProjectId !== undefined
        ? [...new Set([...(cmd.projectIds ?? []), ...(cmd.legacyProjectId ? [cmd.legacyProjectId] : [])].map((id) => id.toLowerCase()))]
        : undefined;

    let scope: AgentScope;
    let role: OrgRole;
    let ownerMemberId: string | null = null;
    if (cmd.personal) {
      if (projectIds !== undefined) throw Errors.validation('A personal agent acts with its owner’s access; do not send projectIds');
      if (cmd.role !== undefined && cmd.role !== 'member') throw Errors.validation('A personal agent has role member; it acts with its owner’s access');
      this.access.assertNotGuest(actor);
      scope = 'personal';
      role = 'member';
      ownerMemberId = actor.memberId;
    } else if (projectIds !== undefined) {
      if (!projectIds.length) throw Errors.validation('projectIds must name at least one project');
      if (cmd.role !== undefined) throw Errors.validation('A project-scoped agent is always an organization guest; do not send role');
      // Concealment first (404 for any unreadable or unknown project), then the admin requirement (403).
      for (const id of projectIds) await this.access.assertProjectRead(actor, id);
      for (const id of projectIds) await this.access.assertProjectWrite(actor, id, 'admin');
      scope = 'project';
      role = 'guest';
    } else {
      this.access.assertOrgAdmin(actor, 'Only organization owners and admins can create organization agents');
      scope = 'organization';
      role = cmd.role ?? 'member';
    }

    const id = randomUUID();
    return this.tx.run(async (m) => {
      await this.plan.assertCanAdd(m, actor.orgId, 'agents');
      await this.access.lockCallerRole(actor, m); // the decisions above used this role
      await this.agents.insert({ orgId: actor.orgId, id, role, name, scope, ownerMemberId, createdByMemberId: actor.memberId }, m);
      if (scope === 'project' && projectIds) await this.projectAccess.grantEdit(actor.orgId, id, projectIds, m);
      const key = await this.agents.mintKey(actor.orgId, id, actor.memberId, m);
      const row = await this.agents.findOne(actor.orgId, id, m);
      if (!row) throw Errors.notFound();
      if (scope === 'project' && row.project_ids.length !== projectIds!.length) throw Errors.notFound('Project not found'); // deleted meanwhile
      return { agent: toAgentResponse(row, row.project_ids), apiKey: key.key, apiKeyId: key.id };
    });
  }
}
