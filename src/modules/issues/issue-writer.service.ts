import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AccessPolicyService } from '../../common/access/access-policy.service';
import type { Actor } from '../../common/auth/principal';
import { type ChangeOrigin, DomainEvents } from '../../common/events/domain-events';
import { Errors } from '../../common/errors/domain-error';
import { PlanService } from '../../common/plan/plan.service';
import { LabelsRepository } from '../labels/labels.repository';
import { MembersRepository } from '../members/members.repository';
import { MilestonesRepository } from '../milestones/milestones.repository';
import { BoardRepository } from '../projects/board.repository';
import { TeamsRepository } from '../teams/teams.repository';
import { BUILTIN_STATUSES, IssueEntity, TERMINAL_STATUSES } from './entities/issue.entity';
import type { PlanName } from '../../config/config';
import type { ParsedIssueFields } from './issue-input';
import { stageIssuesCreatedWith } from './issue-change-events';
import { IssueRecurrenceAdapter } from './issue-recurrence.adapter';
import type { IssueExtras } from './issues.mapper';
import { IssuesRepository } from './issues.repository';

export const isTerminal = (status: string) => (TERMINAL_STATUSES as readonly string[]).includes(status);

/** A project new issues go to: key and slug (for responses) and its statuses (built-ins, then its column keys). */
export interface TargetProject {
  key: string;
  slug: string;
  statuses: string[];
}

/** What the creating transaction read about its targets (IssueWriter.openTargets). */
export interface IssueTargets {
  plan: PlanName | undefined;
  projects: Map<string, TargetProject>;
}

/** A validated new issue, before its number (IssueWriter.prepare, then insert). */
export interface PreparedIssue {
  issue: IssueEntity;
  assigneeIds: string[];
  labelIds: string[];
}

/** The statuses of a project with these board column keys: the built-ins, then its own keys. */
export const statusesOf = (columnKeys: string[]): string[] => [...new Set([...BUILTIN_STATUSES, ...columnKeys])];

/**
 * Creating issues and the checks shared by create, bulk create, sub-tasks and update: target
 * project access, statuses of the project, assignees, milestone, team and labels, numbering. Every
 * write runs inside the caller's transaction; the caller stages the timeline entries.
 */
@Injectable()
export class IssueWriter {
  constructor(
    private readonly access: AccessPolicyService,
    private readonly plans: PlanService,
    private readonly recurrence: IssueRecurrenceAdapter,
    private readonly events: DomainEvents,
    private readonly issues: IssuesRepository,
    private readonly board: BoardRepository,
    private readonly members: MembersRepository,
    private readonly milestones: MilestonesRepository,
    private readonly teams: TeamsRepository,
    private readonly labels: LabelsRepository,
  ) {}

  /** Creating (or moving an issue) into a project needs edit/admin there; projectless needs a non-guest. */
  async assertCanWriteTarget(actor: Actor, projectId: string | null, m?: EntityManager): Promise<void> {
    if (projectId) await this.access.assertProjectWrite(actor, projectId, 'edit', m);
    else await this.access.assertOrgWideMember(actor, 'Guests cannot create or move issues outside a project', m);
  }

  /**
   * Before the creating transaction: 404 for a target project the caller cannot read, 403 for a
   * guest creating projectless issues (whether the project exists, and 403 for view-only access,
   * are decided in the transaction: openTargets).
   */
  async assertTargetsReadable(actor: Actor, projectIds: Array<string | null>): Promise<void> {
    for (const id of new Set(projectIds)) {
      if (id === null) await this.access.assertOrgWideMember(actor, 'Guests cannot create or move issues outside a project');
      else if (!(await this.access.levelFor(actor, id))) throw Errors.notFound('Project not found');
    }
  }

  /**
   * In the creating transaction, one statement for what the new issues need (the plan, each target
   * project with its key, slug and statuses), then per project 404 (gone or unreadable) / 403 (not
   * writable), then the plan limit for `activeCount` new active issues (402; a plan without a limit
   * takes no lock).
   */
  async openTargets(m: EntityManager, actor: Actor, projectIds: Array<string | null>, activeCount: number): Promise<IssueTargets> {
    const ids = [...new Set(projectIds.filter((p): p is string => p !== null))];
    const read = await this.issues.newIssueTargets(actor.orgId, ids, m);
    if (read.presence) this.events.notePresence(m, actor.orgId, { webhooks: read.presence.webhooks, automationRules: read.presence.automation_rules });
    const projects = new Map(read.projects.map((p) => [p.id, { key: p.key, slug: p.slug, statuses: statusesOf(p.column_keys) }]));
    for (const id of ids) await this.access.assertProjectWrite(actor, id, 'edit', m, projects.has(id));
    await this.plans.assertCanAdd(m, actor.orgId, 'activeIssues', activeCount, read.plan);
    return { plan: read.plan, projects };
  }

  /** Built-in statuses plus the project's board column keys. */
  async statuses(m: EntityManager, orgId: string, projectId: string | null): Promise<string[]> {
    if (!projectId) return [...BUILTIN_STATUSES];
    return statusesOf(await this.board.columnKeys(orgId, projectId, m));
  }

  /** The statuses of a target read by openTargets (the built-ins for projectless issues). */
  statusesOf(targets: IssueTargets, projectId: string | null): string[] {
    return projectId ? (targets.projects.get(projectId)?.statuses ?? [...BUILTIN_STATUSES]) : [...BUILTIN_STATUSES];
  }

  /** 400 unless `status` is one of `allowed`. */
  assertStatusIn(allowed: string[], status: string): void {
    if (!allowed.includes(status)) throw Errors.validation(`status must be one of: ${allowed.join(', ')}`, { accepted_statuses: allowed });
  }

  async assertStatus(m: EntityManager, orgId: string, projectId: string | null, status: string): Promise<void> {
    this.assertStatusIn(await this.statuses(m, orgId, projectId), status);
  }

  /**
   * Assignees must be active members of the organization who can read the project (projectless:
   * non-guests). Personal agents are judged by their owner's role. Never applied otherwise.
   */
  async assertAssignees(m: EntityManager, orgId: string, projectId: string | null, ids: string[]): Promise<void> {
    if (!ids.length) return;
    const ok = new Set(await this.members.assignableAmong(orgId, ids, projectId, m));
    const bad = ids.filter((id) => !ok.has(id));
    if (bad.length) {
      throw Errors.validation(
        `Assignees must be active members of this organization who can read the ${projectId ? 'project' : 'organization’s projectless issues'}`,
        {
          invalid_assignee_ids: bad,
        },
      );
    }
  }

  async assertMilestone(m: EntityManager, orgId: string, projectId: string | null, milestoneId: string | null): Promise<void> {
    if (!milestoneId) return;
    if (!projectId) throw Errors.validation('A projectless issue cannot have a milestone');
    if (!(await this.milestones.existsInProject(orgId, milestoneId, projectId, m)))
      throw Errors.validation('milestoneId must be a milestone of the issue’s project');
  }

  async assertTeam(m: EntityManager, orgId: string, teamId: string | null): Promise<void> {
    if (!teamId) return;
    if (!(await this.teams.exists(orgId, teamId, m))) throw Errors.validation('teamId must be a team of this organization');
  }

  async assertLabels(m: EntityManager, orgId: string, labelIds: string[]): Promise<void> {
    if (!labelIds.length) return;
    const ok = new Set(await this.labels.idsAmong(orgId, labelIds, m));
    const bad = labelIds.filter((id) => !ok.has(id));
    if (bad.length) throw Errors.validation('labelIds must be labels of this organization', { invalid_label_ids: bad });
  }

  /** Replaces the assignee set (first = primary); returns the members added and removed. `prev`: the current set, when the caller read it. */
  async setAssignees(m: EntityManager, orgId: string, issueId: string, ids: string[], prev?: string[]): Promise<{ added: string[]; removed: string[] }> {
    prev ??= await this.issues.assigneeIds(orgId, issueId, m);
    await this.issues.clearAssignees(orgId, issueId, m);
    if (ids.length) await this.issues.addAssignees(orgId, issueId, ids, new Date(), m);
    return { added: ids.filter((id) => !prev.includes(id)), removed: prev.filter((id) => !ids.includes(id)) };
  }

  /**
   * Validates one new issue against its target (read by openTargets; statuses without a query,
   * assignees, milestone, team and labels with one look-up each when given) and builds its row; the
   * number comes with `insert`.
   */
  async prepare(m: EntityManager, actor: Actor, f: ParsedIssueFields, targets: IssueTargets, extra: { parentId?: string | null } = {}): Promise<PreparedIssue> {
    const orgId = actor.orgId;
    const projectId = f.projectId ?? null;
    const status = f.status ?? 'backlog';
    this.assertStatusIn(this.statusesOf(targets, projectId), status);
    const assigneeIds = f.assigneeIds ?? [];
    await this.assertAssignees(m, orgId, projectId, assigneeIds);
    await this.assertMilestone(m, orgId, projectId, f.milestoneId ?? null);
    await this.assertTeam(m, orgId, f.teamId ?? null);
    const labelIds = f.labelIds ?? [];
    await this.assertLabels(m, orgId, labelIds);
    const now = new Date();
    const dueDate = f.dueDate ?? null;
    const recurrence = this.recurrence.apply(null, f.recurrence, f.hasRecurrence, dueDate, now);
    const issue: IssueEntity = Object.assign(new IssueEntity(), {
      orgId,
      id: randomUUID(),
      projectId,
      number: 0,
      title: f.title!,
      description: f.description ?? null,
      status,
      priority: f.priority ?? 2,
      assigneeId: assigneeIds[0] ?? null,
      teamId: f.teamId ?? null,
      milestoneId: f.milestoneId ?? null,
      parentId: extra.parentId ?? null,
      startDate: f.startDate ?? null,
      dueDate,
      completedAt: status === 'done' ? now : null,
      ...recurrence,
      recurrenceSourceId: null,
      createdByMemberId: actor.memberId,
      archivedAt: null,
      createdAt: now,
      updatedAt: now,
    });
    return { issue, assigneeIds, labelIds: [...labelIds].sort() };
  }

  /**
   * Inserts prepared issues: one statement per target in target order (projects by id, then the
   * projectless sequence), each numbering its issues from the target's counter in the given order;
   * then their assignee and label links (one statement each, when any); stages their `created`
   * events. Sets each issue's number.
   */
  async insert(m: EntityManager, actor: Actor, prepared: PreparedIssue[], origin?: ChangeOrigin): Promise<void> {
    const orgId = actor.orgId;
    const targets = [...new Set(prepared.map((p) => p.issue.projectId))].sort((a, b) => (a === null ? 1 : b === null ? -1 : a < b ? -1 : a > b ? 1 : 0));
    for (const target of targets) {
      const group = prepared.filter((p) => p.issue.projectId === target).map((p) => p.issue);
      const numbers = await this.issues.insertNumbered(orgId, target, group, m);
      if (numbers.size !== group.length) throw Errors.notFound('Project not found'); // deleted meanwhile
      for (const i of group) i.number = numbers.get(i.id)!;
    }
    const at = prepared[0]?.issue.createdAt ?? new Date();
    await this.issues.addAssigneesOf(
      orgId,
      prepared.map((p) => ({ issueId: p.issue.id, memberIds: p.assigneeIds })),
      at,
      m,
    );
    await this.issues.addLabelsOf(
      orgId,
      prepared.map((p) => ({ issueId: p.issue.id, labelIds: p.labelIds })),
      at,
      m,
    );
    const created = prepared.map(({ issue: i, assigneeIds }) => ({
      id: i.id,
      facts: {
        status: i.status,
        priority: i.priority,
        projectId: i.projectId,
        assigneeIds,
        title: i.title,
        number: i.number,
        createdByMemberId: actor.memberId,
        archived: false,
        milestoneId: i.milestoneId,
      },
    }));
    await stageIssuesCreatedWith(this.events, m, orgId, created, actor, origin);
  }

  /** What the response of a new issue shows beyond its row, from what the writer holds. */
  extrasOf(p: PreparedIssue, targets: IssueTargets): IssueExtras {
    const project = p.issue.projectId ? targets.projects.get(p.issue.projectId) : undefined;
    return { projectKey: project?.key ?? null, projectSlug: project?.slug ?? null, assigneeIds: p.assigneeIds, labelIds: p.labelIds };
  }

  /** Validates and inserts one issue (openTargets first): prepare, then insert. */
  async create(
    m: EntityManager,
    actor: Actor,
    f: ParsedIssueFields,
    targets: IssueTargets,
    extra: { parentId?: string | null; origin?: ChangeOrigin } = {},
  ): Promise<PreparedIssue> {
    const p = await this.prepare(m, actor, f, targets, extra);
    await this.insert(m, actor, [p], extra.origin);
    return p;
  }

  /** Plan check for `count` more active issues (call inside the transaction; a limited plan locks until commit). */
  assertPlan(m: EntityManager, orgId: string, count: number): Promise<void> {
    return this.plans.assertCanAdd(m, orgId, 'activeIssues', count);
  }
}
