import { Module } from '@nestjs/common';
import { IssueListModule } from '../issue-list/issue-list.module';
import { IssuesModule } from '../issues/issues.module';
import { CreateSubtaskHandler } from './commands/create-subtask/create-subtask.handler';
import { DetachSubtaskHandler } from './commands/detach-subtask/detach-subtask.handler';
import { UpdateSubtaskHandler } from './commands/update-subtask/update-subtask.handler';
import { ListSubtasksHandler } from './queries/list-subtasks/list-subtasks.handler';
import { SubtasksController } from './subtasks.controller';
import { SubtasksRepository } from './subtasks.repository';

/**
 * Subtasks: issues with `parent_id`.
 *
 * - GET: parent readable (404 otherwise); only the children the caller can read.
 * - POST `{ title, … }`: edit on the parent (404 unreadable, 403 view-only); the child is created
 *   with the POST /issues rules (IssueWriter: plan `activeIssues`, numbering, statuses, default
 *   backlog) in the parent's project → 201 `{ subtask, issue }`; publishes `issue.created` on the
 *   child and `subtask.created` on the parent. POST `{ issueId }` attaches an existing issue of the
 *   same project (edit on both) → 200.
 * - PATCH: the subtask must be a child of that parent (404), edit on it (403); validated and
 *   applied by the issue update (UpdateIssueCommand).
 * - DELETE: detaches (the child becomes a top-level issue; issue deletion stays owner/admin-only
 *   via DELETE /issues/{id}).
 * - Trees: at most 5 levels (400); no cycles (400).
 */
@Module({
  imports: [IssuesModule, IssueListModule],
  controllers: [SubtasksController],
  providers: [SubtasksRepository, CreateSubtaskHandler, UpdateSubtaskHandler, DetachSubtaskHandler, ListSubtasksHandler],
})
export class SubtasksModule {}
