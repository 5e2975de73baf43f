import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { DomainEvents, IssueActivityEvent, snapshotOf } from '../../../../common/events/domain-events';
import { IssuesRepository } from '../../../issues/issues.repository';
import { toIssueLabelResponse } from '../../issue-labels.mapper';
import type { IssueLabelRemovedResponse } from '../../issue-labels.response';
import { RemoveIssueLabelCommand } from './remove-issue-label.command';
import { TxRunner } from '../../../../database/tx-runner';

/** Needs edit on the issue; 404 when the label is not on the issue. */
@CommandHandler(RemoveIssueLabelCommand)
export class RemoveIssueLabelHandler implements ICommandHandler<RemoveIssueLabelCommand, IssueLabelRemovedResponse> {
  constructor(
    private readonly tx: TxRunner,
    private readonly access: AccessPolicyService,
    private readonly events: DomainEvents,
    private readonly issues: IssuesRepository,
  ) {}

  async execute({ actor, issueId, labelId }: RemoveIssueLabelCommand): Promise<IssueLabelRemovedResponse> {
    const issue = await this.access.assertIssueWrite(actor, issueId, 'edit');
    await this.tx.run(async (m) => {
      const name = await this.issues.unlinkLabel(actor.orgId, issue.id, labelId, m);
      if (name === undefined) throw Errors.notFound('Label is not on this issue');
      await this.issues.touch(actor.orgId, issue.id, m);
      await this.events.stage(
        m,
        new IssueActivityEvent(actor.orgId, issue.id, issue.projectId, actor.memberId, snapshotOf(actor), 'label.removed', {
          label_id: labelId,
          label_name: name,
        }),
      );
    });
    return { success: true, labels: (await this.issues.labelsOf(actor.orgId, issue.id)).map(toIssueLabelResponse) };
  }
}
