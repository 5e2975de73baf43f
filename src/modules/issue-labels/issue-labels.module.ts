import { Module } from '@nestjs/common';
import { IssuesModule } from '../issues/issues.module';
import { LabelsModule } from '../labels/labels.module';
import { AddIssueLabelHandler } from './commands/add-issue-label/add-issue-label.handler';
import { RemoveIssueLabelHandler } from './commands/remove-issue-label/remove-issue-label.handler';
import { IssueLabelWriter } from './issue-label-writer.service';
import { IssueLabelsController } from './issue-labels.controller';
import { ListIssueLabelsHandler } from './queries/list-issue-labels/list-issue-labels.handler';

/**
 * Labels on issues: GET (issue read), POST { labelId } and DELETE /:labelId (edit on the issue:
 * 404 unreadable, 403 view-only). The label must be of the same organization (404 otherwise;
 * non-UUID labelId 400). Adding is idempotent: 201 when linked now, 200 `added: false` when it
 * already was (no second activity). Removing a label that is not on the issue is 404. Changes bump
 * the issue's updated_at and publish `label.added` / `label.removed` after commit. Exports the
 * IssueLabelWriter (automation's `add_label`). Its statements are IssuesRepository's (label links) and LabelsRepository's (the label).
 */
@Module({
  imports: [IssuesModule, LabelsModule],
  controllers: [IssueLabelsController],
  providers: [IssueLabelWriter, AddIssueLabelHandler, RemoveIssueLabelHandler, ListIssueLabelsHandler],
  exports: [IssueLabelWriter],
})
export class IssueLabelsModule {}
