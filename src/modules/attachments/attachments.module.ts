import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { StorageModule } from '../../common/storage/storage.module';
import { ATTACHMENTS_QUEUE } from './attachments.constants';
import { AttachmentsController } from './attachments.controller';
import { AttachmentsRepository } from './attachments.repository';
import { DeleteAttachmentHandler } from './commands/delete-attachment/delete-attachment.handler';
import { UploadAttachmentHandler } from './commands/upload-attachment/upload-attachment.handler';
import { GetAttachmentContentHandler } from './queries/get-attachment-content/get-attachment-content.handler';
import { ListAttachmentsHandler } from './queries/list-attachments/list-attachments.handler';
import { StorageDeletionsRepository } from './storage-deletions.repository';
import { UploadSlots } from './upload-slots';

/**
 * Files attached to issues, stored through ObjectStorage (src/common/storage: PostgreSQL by
 * default, or an S3-compatible bucket; key `<org>/<random>`), with their SHA-256 recorded.
 *
 * Access follows the issue (AccessPolicyService): read access lists and downloads, edit access
 * uploads and deletes; unreadable issues (guests and projectless issues included) are 404.
 * Uploads: multipart field `file`, non-empty (400), at most 10 MiB (413, streamed and counted,
 * never buffered; at most UPLOAD_MAX_CONCURRENT at once per process, more are 503 `uploads_busy`:
 * UploadSlots); PNG/JPEG/GIF/WebP are verified by signature and served inline, other declared
 * images are rejected, everything else is served as a download with `nosniff`.
 * Deletes remove the row; the trigger queues the object in `storage_deletions`, which the worker
 * (AttachmentsWorkerModule) drains with retries.
 */
@Module({
  imports: [BullModule.registerQueue({ name: ATTACHMENTS_QUEUE }), StorageModule],
  controllers: [AttachmentsController],
  providers: [
    AttachmentsRepository,
    StorageDeletionsRepository,
    UploadAttachmentHandler,
    DeleteAttachmentHandler,
    ListAttachmentsHandler,
    GetAttachmentContentHandler,
    UploadSlots,
  ],
})
export class AttachmentsModule {}
