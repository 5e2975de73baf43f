import { InjectQueue } from '@nestjs/bull';
import { Logger } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Queue } from 'bull';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { DomainEvents, IssueActivityEvent, snapshotOf } from '../../../../common/events/domain-events';
import { ATTACHMENTS_QUEUE, PROCESS_STORAGE_DELETIONS } from '../../attachments.constants';
import { AttachmentsRepository } from '../../attachments.repository';
import { DeleteAttachmentCommand } from './delete-attachment.command';
import { TxRunner } from '../../../../database/tx-runner';

/**
 * Deletes an attachment row (edit access on the issue). The database trigger queues the stored
 * object in `storage_deletions` in the same transaction; the worker removes it and retries
 * failures. A sweep job is requested right away so removal is prompt when the worker runs.
 */
@CommandHandler(DeleteAttachmentCommand)
export class DeleteAttachmentHandler implements ICommandHandler<DeleteAttachmentCommand, void> {
  private readonly logger = new Logger(DeleteAttachmentHandler.name);

  constructor(
    private readonly attachments: AttachmentsRepository,
    private readonly access: AccessPolicyService,
    private readonly events: DomainEvents,
    private readonly tx: TxRunner,
    @InjectQueue(ATTACHMENTS_QUEUE) private readonly queue: Queue,
  ) {}

  async execute({ actor, issueId, attachmentId }: DeleteAttachmentCommand): Promise<void> {
    const issue = await this.access.assertIssueWrite(actor, issueId, 'edit');
    await this.tx.run(async (m) => {
      const removed = await this.attachments.delete(actor.orgId, issue.id, attachmentId, m);
      if (!removed) throw Errors.notFound('Attachment not found');
      await this.events.stage(
        m,
        new IssueActivityEvent(actor.orgId, issue.id, issue.projectId, actor.memberId, snapshotOf(actor), 'attachment.removed', {
          attachment_id: attachmentId,
          file_name: removed.file_name,
        }),
      );
    });
    const bucket = Math.floor(Date.now() / 10_000);
    await this.queue
      .add(PROCESS_STORAGE_DELETIONS, {}, { jobId: `${PROCESS_STORAGE_DELETIONS}:${bucket}`, delay: 1000, removeOnComplete: 100, removeOnFail: 100 })
      .catch((e: Error) => this.logger.warn(`could not request a storage sweep (the scheduled sweep will run): ${e.message}`));
  }
}
