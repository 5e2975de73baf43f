import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { DomainEvents, IssueActivityEvent, snapshotOf } from '../../../../common/events/domain-events';
import { readIssueLabels } from '../../issue-labels.reader';
import type { IssueLabelRemovedResponse } from '../../issue-labels.response';
import { RemoveIssueLabelCommand } from './remove-issue-label.command';

/** Needs edit on the issue; 404 when the label is not on the issue. */
@CommandHandler(RemoveIssueLabelCommand)
export class RemoveIssueLabelHandler implements ICommandHandler<RemoveIssueLabelCommand, IssueLabelRemovedResponse> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
    private readonly events: DomainEvents,
  ) {}

  async execute({ actor, issueId, labelId }: RemoveIssueLabelCommand): Promise<IssueLabelRemovedResponse> {
    const issue = await this.access.assertIssueWrite(actor, issueId, 'edit');
    await this.db.transaction(async (m) => {
      const rows: Array<{ name: string }> = await m.query(
        `DELETE FROM issue_labels il USING labels l
          WHERE il.org_id = $1 AND il.issue_id = $2 AND il.label_id = $3 AND l.org_id = il.org_id AND l.id = il.label_id
          RETURNING l.name`,
        [actor.orgId, issue.id, labelId],
      );
      const name = (Array.isArray(rows[0]) ? (rows[0] as Array<{ name: string }>)[0] : rows[0])?.name;
      if (name === undefined) throw Errors.notFound('Label is not on this issue');
      await m.query('UPDATE issues SET updated_at = now() WHERE org_id = $1 AND id = $2', [actor.orgId, issue.id]);
      await this.events.stage(m,
        new IssueActivityEvent(actor.orgId, issue.id, issue.projectId, actor.memberId, snapshotOf(actor), 'label.removed', { label_id: labelId, label_name: name }),
      );
      return name;
    });
    return { success: true, labels: await readIssueLabels(this.db.manager, actor.orgId, issue.id) };
  }
}
