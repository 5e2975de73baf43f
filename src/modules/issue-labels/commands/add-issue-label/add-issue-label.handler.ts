import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { isUuid } from '../../../../common/http/validation';
import { DomainEvents, IssueActivityEvent, snapshotOf } from '../../../../common/events/domain-events';
import { IssueLabelWriter } from '../../issue-label-writer.service';
import { IssuesRepository } from '../../../issues/issues.repository';
import { toIssueLabelResponse } from '../../issue-labels.mapper';
import type { IssueLabelAddedResponse } from '../../issue-labels.response';
import { AddIssueLabelCommand } from './add-issue-label.command';
import { TxRunner } from '../../../../database/tx-runner';

/**
 * Needs edit on the issue (404 unreadable, 403 view-only); the label must belong to the
 * organization (404). Idempotent: an existing link is 200 with `added: false` and no activity.
 */
@CommandHandler(AddIssueLabelCommand)
export class AddIssueLabelHandler implements ICommandHandler<AddIssueLabelCommand, { status: number; body: IssueLabelAddedResponse }> {
  constructor(
    private readonly db: DataSource,
    private readonly tx: TxRunner,
    private readonly access: AccessPolicyService,
    private readonly events: DomainEvents,
    private readonly labels: IssueLabelWriter,
    private readonly issues: IssuesRepository,
  ) {}

  async execute({ actor, issueId, dto }: AddIssueLabelCommand): Promise<{ status: number; body: IssueLabelAddedResponse }> {
    const issue = await this.access.assertIssueWrite(actor, issueId, 'edit');
    const labelId = dto.labelId;
    if (labelId === undefined || labelId === null) throw Errors.validation('labelId is required');
    if (!isUuid(labelId)) throw Errors.validation('labelId must be a UUID');
    const label = await this.labels.findLabel(this.db.manager, actor.orgId, labelId);
    if (!label) throw Errors.notFound('Label not found');
    const added = await this.tx.run(async (m) => {
      const done = await this.labels.add(m, actor.orgId, issue.id, label.id);
      if (done) {
        await this.events.stage(
          m,
          new IssueActivityEvent(actor.orgId, issue.id, issue.projectId, actor.memberId, snapshotOf(actor), 'label.added', {
            label_id: label.id,
            label_name: label.name,
          }),
        );
      }
      return done;
    });
    const all = (await this.issues.labelsOf(actor.orgId, issue.id)).map(toIssueLabelResponse);
    return { status: added ? 201 : 200, body: { success: true, added, label: all.find((l) => l.id === label.id)!, labels: all } };
  }
}
