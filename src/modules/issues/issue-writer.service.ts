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
import type { ParsedIssueFields } from './issue-input';
import { stageIssuesCreatedWith } from './issue-change-events';
import { IssueRecurrenceAdapter } from './issue-recurrence.adapter';
import { IssuesRepository } from './issues.repository';

export const isTerminal = (status: string) => (TERMINAL_STATUSES as readonly string[]).includes(status);

/**
 * Creating issues and the checks shared by create, bulk create and update: target project access,
 * statuses of the project, assignees, milestone, team and labels. Every write runs inside the
 * caller's transaction; the caller publishes activity after commit.
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
  async assertCanWriteTarget(actor: Actor, projectId: string | null): Promise<void> {
    if (projectId) await this.access.assertProjectWrite(actor, projectId, 'edit');
    else await this.access.assertOrgWideMember(actor, 'Guests cannot create or move issues outside a project');
  }

  /** Built-in statuses plus the project's board column keys. */
  async statuses(m: EntityManager, orgId: string, projectId: string | null): Promise<string[]> {
    const out: string[] = [...BUILTIN_STATUSES];
    if (!projectId) return out;
    for (const key of await this.board.columnKeys(orgId, projectId, m)) if (!out.includes(key)) out.push(key);
    return out;
  }

  async assertStatus(m: EntityManager, orgId: string, projectId: string | null, status: string): Promise<void> {
    const allowed = await this.statuses(m, orgId, projectId);
    if (!allowed.includes(status)) {
      throw Errors.validation(`status must be one of: ${allowed.join(', ')}`, { accepted_statuses: allowed });
    }
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

  /** Replaces the assignee set (first = primary); returns the members added and removed. */
  async setAssignees(m: EntityManager, orgId: string, issueId: string, ids: string[]): Promise<{ added: string[]; removed: string[] }> {
    const prev = await this.issues.assigneeIds(orgId, issueId, m);
    await this.issues.clearAssignees(orgId, issueId, m);
    if (ids.length) await this.issues.addAssignees(orgId, issueId, ids, new Date(), m);
    return { added: ids.filter((id) => !prev.includes(id)), removed: prev.filter((id) => !ids.includes(id)) };
  }

  /**
   * Validates and inserts one issue (number from the target's sequence, in this transaction).
   * The caller checked access with `assertCanWriteTarget` and the plan (once per transaction).
   * Stages the `created` domain event (published after commit).
   */
  async create(m: EntityManager, actor: Actor, f: ParsedIssueFields, extra: { parentId?: string | null; origin?: ChangeOrigin } = {}): Promise<IssueEntity> {
    const orgId = actor.orgId;
    const projectId = f.projectId ?? null;
    const status = f.status ?? 'backlog';
    await this.assertStatus(m, orgId, projectId, status);
    const assigneeIds = f.assigneeIds ?? [];
    await this.assertAssignees(m, orgId, projectId, assigneeIds);
    await this.assertMilestone(m, orgId, projectId, f.milestoneId ?? null);
    await this.assertTeam(m, orgId, f.teamId ?? null);
    const labelIds = f.labelIds ?? [];
    await this.assertLabels(m, orgId, labelIds);
    const now = new Date();
    const dueDate = f.dueDate ?? null;
    const recurrence = this.recurrence.apply(null, f.recurrence, f.hasRecurrence, dueDate, now);
    const number = await this.issues.nextNumber(orgId, projectId, m);
    const issue: IssueEntity = Object.assign(new IssueEntity(), {
      orgId,
      id: randomUUID(),
      projectId,
      number,
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
    await this.issues.insert(issue, m);
    if (assigneeIds.length) await this.setAssignees(m, orgId, issue.id, assigneeIds);
    if (labelIds.length) await this.issues.addLabels(orgId, issue.id, labelIds, now, m);
    const facts = { status, priority: issue.priority, projectId, assigneeIds, title: issue.title, number, createdByMemberId: actor.memberId, archived: false };
    await stageIssuesCreatedWith(this.events, m, orgId, [{ id: issue.id, facts }], actor, extra.origin);
    return issue;
  }

  /** Plan check for `count` new active issues; locks the organization row (call inside the transaction). */
  assertPlan(m: EntityManager, orgId: string, count: number): Promise<void> {
    return this.plans.assertCanAdd(m, orgId, 'activeIssues', count);
  }
}
