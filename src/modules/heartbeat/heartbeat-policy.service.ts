import { Injectable } from '@nestjs/common';
import { AccessPolicyService } from '../../common/access/access-policy.service';
import type { Actor } from '../../common/auth/principal';
import { Clock } from '../../common/clock/clock';
import { Errors } from '../../common/errors/domain-error';
import { isUuid } from '../../common/http/validation';
import { agentAsActor, AgentManagementPolicy } from '../agents/agent-management.policy';
import { AgentsRepository } from '../agents/agents.repository';
import { defaultPolicy, hasStale, type HeartbeatPolicy, parsePolicy, sanitize, type Selectable } from './heartbeat-policy';
import { HeartbeatRepository } from './heartbeat.repository';
import { HeartbeatStateRepository } from './heartbeat-state.repository';
import { HeartbeatService, MAX_BYTES } from './heartbeat.service';

/**
 * Per-agent heartbeat policy: GET (saved, effective, selectable, stale selections), PUT (whole
 * replacement), DELETE (defaults), preview (the heartbeat composed as the agent, nothing persisted).
 * Authenticated humans who can manage the agent (AgentManagementPolicy): agent callers 403; an
 * agent the human cannot manage (or that does not exist) 404.
 */
@Injectable()
export class HeartbeatPolicyService {
  constructor(
    private readonly agents: AgentsRepository,
    private readonly management: AgentManagementPolicy,
    private readonly access: AccessPolicyService,
    private readonly repo: HeartbeatRepository,
    private readonly state: HeartbeatStateRepository,
    private readonly heartbeat: HeartbeatService,
    private readonly clock: Clock,
  ) {}

  /** The managed agent as a caller (its live access), after the management check. */
  private async agentActor(actor: Actor, agentId: string): Promise<Actor> {
    if (!actor.isHuman) throw Errors.forbidden('Heartbeat policies are managed by humans who can manage the agent');
    if (!isUuid(agentId)) throw Errors.notFound('Agent not found');
    const agent = await this.management.assertManageable(actor, await this.agents.findOne(actor.orgId, agentId));
    return agentAsActor(actor.orgId, agent);
  }

  /** What may be selected: projects both the agent and the manager read, initiatives the agent sees, their columns. */
  private async selectable(actor: Actor, agent: Actor) {
    const [agentLevels, mine] = await Promise.all([this.access.projectLevels(agent), this.access.readableProjects(actor)]);
    const ids = agentLevels.map((p) => p.projectId).filter((p) => mine === 'all' || mine.includes(p));
    const agentReadable = await this.access.readableProjects(agent);
    const projectless = (await this.access.issueLevel(agent, null)) !== null;
    const readable = agentReadable === 'all' ? null : [...agentReadable].sort();
    const [projects, inis] = await Promise.all([
      this.repo.projects(actor.orgId, [...ids].sort()),
      this.repo.initiatives(actor.orgId, { readable, projectless }, new Date(0)),
    ]);
    const canRead = (p: string) => ids.includes(p);
    const visibleInis = inis.filter((n) =>
      n.projectId ? canRead(n.projectId) : n.projectIds.length ? n.projectIds.some(canRead) : projectless && actor.role !== 'guest',
    );
    const sel: Selectable = {
      projects: new Set(projects.map((p) => p.id)),
      initiatives: new Set(visibleInis.map((n) => n.id)),
      columns: new Map(projects.flatMap((p) => p.columns.map((c) => [c.id, p.id] as [string, string]))),
    };
    return { sel, projects, initiatives: visibleInis };
  }

  async get(actor: Actor, agentId: string): Promise<Record<string, unknown>> {
    const agent = await this.agentActor(actor, agentId);
    const saved = await this.state.policy(actor.orgId, agent.memberId);
    const { sel, projects, initiatives } = await this.selectable(actor, agent);
    const { effective, stale } = sanitize(saved ?? defaultPolicy(), sel);
    return {
      agent: { id: agent.memberId, display_name: agent.displayName },
      saved_policy: saved,
      effective_policy: effective,
      stale_selections: stale,
      has_stale_selections: hasStale(stale),
      selectable: {
        projects: projects.map((p) => ({
          id: p.id,
          name: p.name,
          board_columns: p.columns.map((c) => ({ id: c.id, key: c.key, label: c.label, position: c.position })),
        })),
        initiatives: initiatives.map((n) => ({ id: n.id, title: n.title, status: n.status })),
      },
    };
  }

  /**
   * Ids of the policy checked against the organization (another organization's or unknown ids:
   * 400) and against what the agent and manager may select (focus never grants access: 400).
   */
  private async validate(actor: Actor, agent: Actor, p: HeartbeatPolicy): Promise<void> {
    const found = await this.repo.existing(actor.orgId, { projects: p.project_ids, initiatives: p.initiative_ids, columns: p.columns.map((c) => c.column_id) });
    const { sel } = await this.selectable(actor, agent);
    p.project_ids.forEach((id, i) => {
      if (!found.projects.has(id) || !sel.projects.has(id)) throw Errors.validation(`policy.project_ids[${i}] is not a project this agent can read`);
    });
    p.initiative_ids.forEach((id, i) => {
      if (!found.initiatives.has(id) || !sel.initiatives.has(id))
        throw Errors.validation(`policy.initiative_ids[${i}] is not an initiative this agent can see`);
    });
    p.columns.forEach((c, i) => {
      if (found.columns.get(c.column_id) !== c.project_id || !sel.projects.has(c.project_id)) {
        throw Errors.validation(`policy.columns[${i}] is not a board column of a project this agent can read`);
      }
    });
  }

  async put(actor: Actor, agentId: string, body: unknown): Promise<Record<string, unknown>> {
    const agent = await this.agentActor(actor, agentId);
    const p = parsePolicy(body);
    await this.validate(actor, agent, p);
    await this.state.savePolicy(actor.orgId, agent.memberId, p, actor.memberId, this.clock.now());
    return this.get(actor, agentId);
  }

  async remove(actor: Actor, agentId: string): Promise<Record<string, unknown>> {
    const agent = await this.agentActor(actor, agentId);
    await this.state.deletePolicy(actor.orgId, agent.memberId);
    return { success: true };
  }

  /** `{ policy }` (a draft, validated like PUT) or `{}` (the saved policy, stale ids and all): the compact heartbeat as the agent. */
  async preview(actor: Actor, agentId: string, body: Record<string, unknown>, view: unknown): Promise<Record<string, unknown>> {
    const agent = await this.agentActor(actor, agentId);
    if (view !== undefined && view !== 'compact' && view !== 'full') throw Errors.validation('view must be compact or full');
    let policy: HeartbeatPolicy;
    if (body && Object.keys(body).length) {
      policy = parsePolicy(body);
      await this.validate(actor, agent, policy);
    } else policy = (await this.state.policy(actor.orgId, agent.memberId)) ?? defaultPolicy();
    const heartbeat =
      view === 'full' ? await this.heartbeat.full(agent, policy) : await this.heartbeat.fresh(agent, policy, { view: 'compact', maxBytes: MAX_BYTES }, false);
    return { policy, heartbeat };
  }
}
