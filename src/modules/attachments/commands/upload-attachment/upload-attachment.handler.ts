import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource, type EntityManager } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { DomainEvents, IssueActivityEvent, snapshotOf } from '../../../../common/events/domain-events';
import { decideContentType, safeFileName, UploadInspector } from '../../attachment-content';
import { MAX_ATTACHMENT_BYTES } from '../../attachments.constants';
import { toAttachmentResponse } from '../../attachments.mapper';
import { AttachmentsRepository } from '../../attachments.repository';
import type { AttachmentResponse } from '../../attachments.response';
import { AttachmentEntity } from '../../entities/attachment.entity';
import { StorageDeletionsRepository } from '../../storage-deletions.repository';
import { newStorageKey, ObjectStorage } from '../../../../common/storage/object-storage';
import { UploadAttachmentCommand } from './upload-attachment.command';
import type { Actor } from '../../../../common/auth/principal';
import type { IncomingUpload } from '../../upload-reader';
import { TxRunner } from '../../../../database/tx-runner';

/**
 * Stores an uploaded file for an issue (edit access). The bytes stream to storage while being
 * counted and hashed; the row is written only after the object is complete and verified.
 *
 * With a transactional store (PostgreSQL, the default) the bytes are written inside the row's
 * transaction: object, attachment row and activity commit together or not at all, so neither a
 * refused upload nor a crash at any point leaves bytes without a row. Otherwise (S3) the object is
 * stored first and the row committed after it; any failure after the object exists removes it
 * again (or queues its removal for the worker). A crash between the two can leave an unreferenced
 * object in the bucket (never a row without bytes).
 */
@CommandHandler(UploadAttachmentCommand)
export class UploadAttachmentHandler implements ICommandHandler<UploadAttachmentCommand, AttachmentResponse> {
  private readonly logger = new Logger(UploadAttachmentHandler.name);

  constructor(
    private readonly attachments: AttachmentsRepository,
    private readonly deletions: StorageDeletionsRepository,
    private readonly access: AccessPolicyService,
    private readonly storage: ObjectStorage,
    private readonly events: DomainEvents,
    private readonly db: DataSource,
    private readonly tx: TxRunner,
  ) {}

  async execute({ actor, issueId, readUpload }: UploadAttachmentCommand): Promise<AttachmentResponse> {
    const issue = await this.access.assertIssueWrite(actor, issueId, 'edit');
    const upload = await readUpload();
    try {
      return await this.store(actor, issue, upload);
    } finally {
      upload.drain();
    }
  }

  private async store(actor: Actor, issue: { id: string; projectId: string | null }, upload: IncomingUpload): Promise<AttachmentResponse> {
    const fileName = safeFileName(upload.fileName);
    const key = newStorageKey(actor.orgId);
    const inspector = new UploadInspector(MAX_ATTACHMENT_BYTES);
    /** Verifies the stored upload and writes its row and activity in `m`. */
    const record = async (m: EntityManager): Promise<AttachmentEntity> => {
      if (upload.truncated()) throw Errors.tooLarge(`Attachments are limited to 10 MiB (${MAX_ATTACHMENT_BYTES} bytes)`);
      if (inspector.size === 0) throw Errors.validation('The file is empty');
      const contentType = decideContentType(upload.mimetype, fileName, inspector.head);
      const entity = Object.assign(new AttachmentEntity(), {
        orgId: actor.orgId,
        id: randomUUID(),
        issueId: issue.id,
        fileName,
        contentType,
        sizeBytes: String(inspector.size),
        sha256: inspector.digest(),
        storageKey: key,
        uploadedByMemberId: actor.memberId,
        createdAt: new Date(),
      });
      await this.attachments.insert(entity, m);
      await this.events.stage(
        m,
        new IssueActivityEvent(actor.orgId, issue.id, issue.projectId, actor.memberId, snapshotOf(actor), 'attachment.added', {
          attachment_id: entity.id,
          file_name: entity.fileName,
          content_type: entity.contentType,
          size_bytes: inspector.size,
        }),
      );
      return entity;
    };
    // throws the 400 at once when the file part has already failed (before any storage work)
    const body = upload.pipeTo(inspector);
    if (this.storage.transactional) {
      // put() rolls back with the transaction: nothing to remove on any failure. Not retried (the
      // body stream is read once), so a plain transaction rather than TxRunner.
      const entity = await this.db.transaction(async (m) => {
        await this.storage.put(key, body, m);
        return record(m);
      });
      return toAttachmentResponse(entity);
    }
    // put() leaves nothing behind when it fails (too large, client gone).
    await this.storage.put(key, body);
    let entity: AttachmentEntity;
    try {
      entity = await this.tx.run(record);
    } catch (e) {
      await this.discard(actor.orgId, key);
      throw e;
    }
    return toAttachmentResponse(entity);
  }

  /** Removes an object that never got a row; when that fails, the worker retries it. */
  private async discard(orgId: string, key: string): Promise<void> {
    try {
      await this.storage.delete(key);
    } catch (e) {
      this.logger.warn(`could not remove an orphaned upload, queued for the worker: ${(e as Error).message}`);
      await this.deletions.queue(orgId, key).catch(() => undefined);
    }
  }
}
