import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { assertManageable } from '../../agent-management.policy';
import { AgentStore } from '../../agent.store';
import type { AgentEnvelope } from '../../agents.response';
import { toAgentResponse, visibleProjectIds } from '../../agents.mapper';
import { ReplaceAgentProjectsCommand } from './replace-agent-projects.command';

/**
 * Replaces a project-scoped agent's project entries. The caller needs `admin` access on every project
 * added and every project removed; projects kept are untouched (their access level stays). Takes
 * effect on the agent's next request (no key rotation).
 */
@CommandHandler(ReplaceAgentProjectsCommand)
export class ReplaceAgentProjectsHandler implements ICommandHandler<ReplaceAgentProjectsCommand, AgentEnvelope> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
    private readonly store: AgentStore,
  ) {}

  async execute({ actor, agentId, projectIds }: ReplaceAgentProjectsCommand): Promise<AgentEnvelope> {
    this.access.assertHuman(actor, 'Only humans can change an agent’s projects');
    if (projectIds === undefined) throw Errors.validation('projectIds is required');
    const wanted = [...new Set(projectIds.map((id) => id.toLowerCase()))];
    if (!wanted.length) throw Errors.validation('projectIds must name at least one project (revoke the agent to remove all access)');

    // Authorization on a snapshot (outside the transaction: access checks use their own connections),
    // then the write re-checks under the row lock that the snapshot is still current.
    const before = assertManageable(actor, await this.store.findOne(actor.orgId, agentId));
    if (before.agent_scope !== 'project') throw Errors.validation('Only project-scoped agents have a replaceable project list');
    const current = new Set(before.project_ids);
    const added = wanted.filter((id) => !current.has(id));
    const removed = before.project_ids.filter((id) => !wanted.includes(id));
    const touched = [...added, ...removed];
    for (const id of touched) await this.access.assertProjectRead(actor, id);
    for (const id of touched) await this.access.assertProjectWrite(actor, id, 'admin');

    const row = await this.db.transaction(async (m) => {
      await this.store.lock(m, actor.orgId, agentId);
      const agent = (await this.store.findOne(actor.orgId, agentId, m))!;
      if ([...agent.project_ids].sort().join() !== [...before.project_ids].sort().join()) {
        throw Errors.conflict('The agent’s projects changed concurrently; retry the request');
      }
      if (removed.length) {
        await m.query('DELETE FROM project_members WHERE org_id = $1 AND member_id = $2 AND project_id = ANY($3::uuid[])', [actor.orgId, agentId, removed]);
      }
      if (added.length) {
        const ins: unknown[] = await m.query(
          `INSERT INTO project_members (org_id, project_id, member_id, access_level)
           SELECT $1, p.id, $2, 'edit' FROM projects p WHERE p.org_id = $1 AND p.id = ANY($3::uuid[])
           ON CONFLICT DO NOTHING RETURNING project_id`,
          [actor.orgId, agentId, added],
        );
        if (ins.length !== added.length) throw Errors.notFound('Project not found'); // deleted meanwhile
      }
      await m.query('UPDATE members SET updated_at = now() WHERE org_id = $1 AND id = $2', [actor.orgId, agentId]);
      return (await this.store.findOne(actor.orgId, agentId, m))!;
    });
    const readable = await this.access.readableProjects(actor);
    return { agent: toAgentResponse(row, visibleProjectIds(row, readable === 'all' ? 'all' : new Set(readable))) };
  }
}
