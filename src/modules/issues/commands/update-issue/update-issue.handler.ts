import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService, atLeast } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { DomainEvents, type IssueFacts } from '../../../../common/events/domain-events';
import { isUuid } from '../../../../common/http/validation';
import { toCommentOutcome } from '../../../comments/comment.mapper';
import { PreparedCommentBody } from '../../../comments/comment-body';
import { CommentWriter } from '../../../comments/comment-writer.service';
import { DependencyRules } from '../../../dependencies/dependency-rules.service';
import type { IssueEntity } from '../../entities/issue.entity';
import { stageIssueChangedWith, stageIssuesCreated } from '../../issue-change-events';
import { parseIssueFields, parseReleaseMappings } from '../../issue-input';
import { stageIssueActivity } from '../../issue-events';
import { IssueReader } from '../../issue.reader';
import { IssueRecurrenceAdapter } from '../../issue-recurrence.adapter';
import { isTerminal, IssueWriter, statusesOf } from '../../issue-writer.service';
import { type IssuePatch, issueFromRow, IssuesRepository } from '../../issues.repository';
import type { IssueUpdateResponse } from '../../issues.response';
import { UpdateIssueCommand } from './update-issue.command';
import { TxRunner } from '../../../../database/tx-runner';

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

/** The facts an issue event carries, from the issue's row and its assignees. */
const factsOf = (i: IssueEntity, assigneeIds: string[]): IssueFacts => ({
  status: i.status,
  priority: i.priority,
  projectId: i.projectId,
  assigneeIds,
  title: i.title,
  number: i.number,
  createdByMemberId: i.createdByMemberId,
  archived: i.archivedAt !== null,
  milestoneId: i.milestoneId,
});

/**
 * Updates an issue (UUID, edit access) in one transaction: fields, assignee set, project move
 * (new number, status check, dependency release remapping), recurrence, completion (next
 * occurrence for completion mode) and the optional `comment_body` comment, with their activity.
 */
@CommandHandler(UpdateIssueCommand)
export class UpdateIssueHandler implements ICommandHandler<UpdateIssueCommand> {
  constructor(
    private readonly tx: TxRunner,
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
    if (!isUuid(issueId)) throw Errors.notFound('Issue not found');
    const orgId = actor.orgId;
    // the caller's grants on the pool before the transaction (inside an automation run: its transaction)
    await this.access.projectAccess(actor, tx);
    // parsed before the transaction opens (no connection or row lock held meanwhile); its 400 comes where the comment is written
    const preparedBody = commentBody === undefined ? undefined : PreparedCommentBody.of(commentBody, 'comment_body');

    const result = await this.tx.run(async (m) => {
      // lock first, then decide access on the locked row: a concurrent move cannot slip in between
      const row = await this.issues.lockForUpdate(orgId, issueId, m, f.projectId !== undefined);
      if (!row) throw Errors.notFound('Issue not found');
      this.domain.notePresence(m, orgId, { webhooks: row.webhooks, automationRules: row.automation_rules });
      const issue = issueFromRow(row);
      const level = await this.access.issueLevel(actor, issue.projectId, m);
      if (!level) throw Errors.notFound('Issue not found');
      if (!atLeast(level, 'edit')) throw Errors.forbidden("This needs edit access to the issue's project");
      const moving = f.projectId !== undefined && f.projectId !== issue.projectId;
      if (moving) await this.writer.assertCanWriteTarget(actor, f.projectId ?? null, m);
      const before = factsOf(issue, row.assignee_ids);
      const now = new Date();
      const target = f.projectId !== undefined ? f.projectId : issue.projectId;
      const projectChanged = target !== issue.projectId;
      const patch: Patch = {};

      if (f.title !== undefined) patch.title = f.title;
      if (f.description !== undefined) patch.description = f.description;
      if (f.priority !== undefined) patch.priority = f.priority;
      const status = f.status ?? issue.status;
      if (f.status !== undefined || projectChanged) {
        const allowed = projectChanged ? await this.writer.statuses(m, orgId, target) : statusesOf(row.column_keys);
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
      let updated = issue;
      if (changed.length || assigneesChanged) {
        // only the columns that change (plus updated_at)
        const set = Object.fromEntries(changed.map((k) => [k, (patch as Record<string, unknown>)[k]])) as Patch;
        updated = (await this.issues.updateReturning(orgId, issueId, { ...set, updatedAt: now }, m)) ?? issue;
      }
      if (assigneesChanged) assigneeDiff = await this.writer.setAssignees(m, orgId, issueId, assignees, currentAssignees);

      let comment: Awaited<ReturnType<CommentWriter['create']>> | null = null;
      if (commentBody !== undefined) {
        comment = await this.comments.create(
          m,
          actor,
          { id: issueId, projectId: target, title: updated.title, assigneeIds: assigneesChanged ? assignees : currentAssignees },
          { body: preparedBody, mentions: commentMentions, sourceMetadata: commentSource },
          { bodyField: 'comment_body' },
        );
      }

      const after = factsOf(updated, assigneesChanged ? assignees : currentAssignees);
      if (changedFields.length) await stageIssueChangedWith(this.domain, m, orgId, issueId, 'updated', actor, before, after, changedFields, origin);
      let next: IssueEntity | null = null;
      if (status === 'done' && issue.status !== 'done' && updated.recurrenceType && (updated.recurrenceMode ?? 'completion') === 'completion') {
        next = await this.recurrence.onCompleted(m, updated);
        if (next) await stageIssuesCreated(this.domain, this.issues, m, orgId, [next.id], actor, origin);
      }
      if (changedFields.length) {
        await stageIssueActivity(this.domain, m, actor, updated, 'issue.updated', {
          changed_fields: changedFields,
          ...(projectChanged ? { from_project_id: issue.projectId, to_project_id: updated.projectId } : {}),
          ...(changedFields.includes('status') ? { from_status: issue.status, to_status: updated.status } : {}),
        });
      }
      for (const memberId of assigneeDiff.added) await stageIssueActivity(this.domain, m, actor, updated, 'assignee.added', { member_id: memberId });
      for (const memberId of assigneeDiff.removed) await stageIssueActivity(this.domain, m, actor, updated, 'assignee.removed', { member_id: memberId });
      if (comment) await stageIssueActivity(this.domain, m, actor, updated, 'comment.created', { comment_id: comment.comment.id ?? null });
      if (next)
        await stageIssueActivity(this.domain, m, actor, next, 'issue.created', { number: next.number, title: next.title, recurrence_source_id: updated.id });
      const project = projectChanged ? (target ? (await this.issues.projectKeys(orgId, [target], m))[0] : undefined) : undefined;
      const extras = {
        projectKey: projectChanged ? (project?.key ?? null) : row.project_key,
        projectSlug: projectChanged ? (project?.slug ?? null) : row.project_slug,
        assigneeIds: after.assigneeIds,
        labelIds: row.label_ids,
      };
      return { comment, response: this.reader.fromKnown(updated, extras) };
    }, tx);

    const { comment } = result;
    if (!comment) return { issue: result.response };
    const outcome = toCommentOutcome(comment);
    return { issue: result.response, comment: comment.comment, mentions: outcome.mentions, outcome };
  }
}
