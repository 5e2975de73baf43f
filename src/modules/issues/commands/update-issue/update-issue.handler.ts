import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService, atLeast } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { DomainEvents } from '../../../../common/events/domain-events';
import { toCommentOutcome } from '../../../comments/comment.mapper';
import { PreparedCommentBody } from '../../../comments/comment-body';
import { CommentWriter } from '../../../comments/comment-writer.service';
import { DependencyRules } from '../../../dependencies/dependency-rules.service';
import type { IssueEntity } from '../../entities/issue.entity';
import { stageIssueChanged, stageIssuesCreated } from '../../issue-change-events';
import { parseIssueFields, parseReleaseMappings } from '../../issue-input';
import { stageIssueActivity } from '../../issue-events';
import { IssueReader } from '../../issue.reader';
import { IssueRecurrenceAdapter } from '../../issue-recurrence.adapter';
import { isTerminal, IssueWriter } from '../../issue-writer.service';
import { type IssuePatch, IssuesRepository } from '../../issues.repository';
import type { IssueUpdateResponse } from '../../issues.response';
import { UpdateIssueCommand } from './update-issue.command';

type Patch = IssuePatch;

const RESPONSE_NAME: Record<string, string> = {
  title: 'title',
  description: 'description',
  status: 'status',
  priority: 'priority',
  projectId: 'project_id',
  number: 'number',
  assigneeId: 'assignee_id',
  teamId: 'team_id',
  milestoneId: 'milestone_id',
  startDate: 'start_date',
  dueDate: 'due_date',
  completedAt: 'completed_at',
  recurrenceType: 'recurrence_type',
  recurrenceInterval: 'recurrence_interval',
  recurrenceDays: 'recurrence_days',
  recurrenceMode: 'recurrence_materialization_mode',
  recurrenceTime: 'recurrence_time',
  recurrenceTimezone: 'recurrence_timezone',
  recurrenceNextRunAt: '',
};

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * Updates an issue (UUID, edit access) in one transaction: fields, assignee set, project move
 * (new number, status check, dependency release remapping), recurrence, completion (next
 * occurrence for completion mode) and the optional `comment_body` comment, with their activity.
 */
@CommandHandler(UpdateIssueCommand)
export class UpdateIssueHandler implements ICommandHandler<UpdateIssueCommand> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
    private readonly writer: IssueWriter,
    private readonly reader: IssueReader,
    private readonly recurrence: IssueRecurrenceAdapter,
    private readonly comments: CommentWriter,
    private readonly dependencies: DependencyRules,
    private readonly domain: DomainEvents,
    private readonly issues: IssuesRepository,
  ) {}

  async execute({ actor, issueId, dto, origin, tx }: UpdateIssueCommand): Promise<IssueUpdateResponse> {
    const raw = dto as Record<string, unknown>;
    const f = parseIssueFields(raw, 'update');
    const mappings = parseReleaseMappings(raw);
    const commentBody = raw.comment_body;
    const commentMentions = raw.comment_mentions;
    const commentSource = raw.comment_source_metadata;
    if (commentBody === undefined && (commentMentions !== undefined || commentSource !== undefined)) {
      throw Errors.validation('comment_mentions and comment_source_metadata need comment_body');
    }
    const current = await this.access.assertIssueWrite(actor, issueId, 'edit');
    const moving = f.projectId !== undefined && f.projectId !== current.projectId;
    if (moving) await this.writer.assertCanWriteTarget(actor, f.projectId ?? null);
    const orgId = actor.orgId;
    // parsed before the transaction opens (no connection or row lock held meanwhile); its 400 comes where the comment is written
    const preparedBody = commentBody === undefined ? undefined : PreparedCommentBody.of(commentBody, 'comment_body');

    const result = await (tx ?? this.db.manager).transaction(async (m) => {
      const issue = await this.issues.lockById(orgId, issueId, m);
      if (!issue) throw Errors.notFound('Issue not found');
      if (issue.projectId !== current.projectId) {
        // moved by someone else since the access check: decide again on the locked row
        const level = await this.access.issueLevel(actor, issue.projectId);
        if (!level) throw Errors.notFound('Issue not found');
        if (!atLeast(level, 'edit')) throw Errors.forbidden("This needs edit access to the issue's project");
      }
      const before = (await this.issues.facts(orgId, [issueId], m)).get(issueId)!;
      const now = new Date();
      const target = f.projectId !== undefined ? f.projectId : issue.projectId;
      const projectChanged = target !== issue.projectId;
      const patch: Patch = {};

      if (f.title !== undefined) patch.title = f.title;
      if (f.description !== undefined) patch.description = f.description;
      if (f.priority !== undefined) patch.priority = f.priority;
      const status = f.status ?? issue.status;
      if (f.status !== undefined || projectChanged) {
        const allowed = await this.writer.statuses(m, orgId, target);
        if (!allowed.includes(status)) {
          throw Errors.validation(
            f.status !== undefined
              ? `status must be one of: ${allowed.join(', ')}`
              : `status ${status} does not exist in the target project; send a status (one of: ${allowed.join(', ')})`,
            { accepted_statuses: allowed },
          );
        }
        patch.status = status;
      }
      if (status !== issue.status) {
        if (status === 'done') patch.completedAt = now;
        else if (issue.status === 'done') patch.completedAt = null;
        // reopening a finished, non-archived issue makes it active again: the plan decides
        if (isTerminal(issue.status) && !isTerminal(status) && !issue.archivedAt) await this.writer.assertPlan(m, orgId, 1);
      }
      if (f.teamId !== undefined) {
        await this.writer.assertTeam(m, orgId, f.teamId);
        patch.teamId = f.teamId;
      }
      if (f.milestoneId !== undefined) {
        await this.writer.assertMilestone(m, orgId, target, f.milestoneId);
        patch.milestoneId = f.milestoneId;
      } else if (projectChanged && issue.milestoneId) {
        patch.milestoneId = null; // milestones belong to one project
      }
      const start = f.startDate !== undefined ? f.startDate : issue.startDate;
      const due = f.dueDate !== undefined ? f.dueDate : issue.dueDate;
      if (start && due && start > due) throw Errors.validation('startDate must not be after dueDate');
      if (f.startDate !== undefined) patch.startDate = f.startDate;
      if (f.dueDate !== undefined) patch.dueDate = f.dueDate;
      Object.assign(patch, this.recurrence.apply(issue, f.recurrence, f.hasRecurrence, due, now));

      const currentAssignees = before.assigneeIds; // read with the facts, in assignee order
      const assignees = f.assigneeIds ?? currentAssignees;
      if (f.assigneeIds !== undefined || projectChanged) await this.writer.assertAssignees(m, orgId, target, assignees);
      const assigneesChanged = !same(assignees, currentAssignees);
      if (assigneesChanged || (assignees[0] ?? null) !== issue.assigneeId) patch.assigneeId = assignees[0] ?? null;

      if (projectChanged) {
        await this.dependencies.remapOnProjectChange(m, orgId, issueId, target, mappings);
        patch.projectId = target;
        patch.number = await this.issues.nextNumber(orgId, target, m);
        // Sub-tasks live in their parent's project: a move detaches the issue from its parent and
        // its own sub-tasks from it (they stay where they are).
        if (issue.parentId) patch.parentId = null;
        await this.issues.detachChildren(orgId, issueId, m);
      }

      const changed = Object.keys(patch).filter((k) => !same((patch as Record<string, unknown>)[k], (issue as unknown as Record<string, unknown>)[k]));
      const changedFields = [...new Set(changed.map((k) => RESPONSE_NAME[k] ?? k).filter(Boolean))];
      if (assigneesChanged) changedFields.push('assignee_ids');
      changedFields.sort();
      let assigneeDiff = { added: [] as string[], removed: [] as string[] };
      if (changed.length || assigneesChanged) {
        await this.issues.update(orgId, issueId, { ...patch, updatedAt: now }, m);
      }
      if (assigneesChanged) assigneeDiff = await this.writer.setAssignees(m, orgId, issueId, assignees);

      let comment: Awaited<ReturnType<CommentWriter['create']>> | null = null;
      if (commentBody !== undefined) {
        comment = await this.comments.create(
          m,
          actor,
          { id: issueId, projectId: target },
          { body: preparedBody, mentions: commentMentions, sourceMetadata: commentSource },
          { bodyField: 'comment_body' },
        );
      }

      const updated = (await this.issues.findById(orgId, issueId, m))!;
      if (changedFields.length) await stageIssueChanged(this.domain, this.issues, m, orgId, issueId, 'updated', actor, before, changedFields, origin);
      let next: IssueEntity | null = null;
      if (status === 'done' && issue.status !== 'done' && updated.recurrenceType && (updated.recurrenceMode ?? 'completion') === 'completion') {
        next = await this.recurrence.onCompleted(m, updated);
        if (next) await stageIssuesCreated(this.domain, this.issues, m, orgId, [next.id], actor, origin);
      }
      if (changedFields.length) {
        await stageIssueActivity(this.domain, m, actor, updated, 'issue.updated', {
          changed_fields: changedFields,
          ...(projectChanged ? { from_project_id: issue.projectId, to_project_id: updated.projectId } : {}),
          ...(changedFields.includes('status') ? { from_status: current.status, to_status: updated.status } : {}),
        });
      }
      for (const memberId of assigneeDiff.added) await stageIssueActivity(this.domain, m, actor, updated, 'assignee.added', { member_id: memberId });
      for (const memberId of assigneeDiff.removed) await stageIssueActivity(this.domain, m, actor, updated, 'assignee.removed', { member_id: memberId });
      if (comment) await stageIssueActivity(this.domain, m, actor, updated, 'comment.created', { comment_id: comment.comment.id ?? null });
      if (next)
        await stageIssueActivity(this.domain, m, actor, next, 'issue.created', { number: next.number, title: next.title, recurrence_source_id: updated.id });
      return {
        updated,
        changedFields,
        assigneeDiff,
        comment,
        next,
        response: await this.reader.toResponse(orgId, updated, m),
        moved: projectChanged ? issue.projectId : undefined,
      };
    });

    const { comment } = result;
    if (!comment) return { issue: result.response };
    const outcome = toCommentOutcome(comment);
    return { issue: result.response, comment: comment.comment, mentions: outcome.mentions, outcome };
  }
}
