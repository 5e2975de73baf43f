import type { Readable } from 'node:stream';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { contentDisposition, INLINE_IMAGE_TYPES } from '../../attachment-content';
import { AttachmentsRepository } from '../../attachments.repository';
import { ObjectStorage } from '../../../../common/storage/object-storage';
import { GetAttachmentContentQuery } from './get-attachment-content.query';

export interface AttachmentContent {
  stream: Readable;
  headers: Record<string, string>;
}

/**
 * The bytes of an attachment of a readable issue. Verified images are inline with their type;
 * everything else is a download (`application/octet-stream`, `attachment`). Always `nosniff`.
 */
@QueryHandler(GetAttachmentContentQuery)
export class GetAttachmentContentHandler implements IQueryHandler<GetAttachmentContentQuery, AttachmentContent> {
  constructor(
    private readonly attachments: AttachmentsRepository,
    private readonly access: AccessPolicyService,
    private readonly storage: ObjectStorage,
  ) {}

  async execute({ actor, issueId, attachmentId }: GetAttachmentContentQuery): Promise<AttachmentContent> {
    const issue = await this.access.assertIssueRead(actor, issueId);
    const a = await this.attachments.find(actor.orgId, issue.id, attachmentId);
    if (!a) throw Errors.notFound('Attachment not found');
    const stream = await this.storage.get(a.storageKey);
    if (!stream) throw Errors.notFound('Attachment content not found');
    const inline = (INLINE_IMAGE_TYPES as readonly string[]).includes(a.contentType);
    return {
      stream,
      headers: {
        'content-type': inline ? a.contentType : 'application/octet-stream',
        'content-disposition': contentDisposition(inline ? 'inline' : 'attachment', a.fileName),
        'content-length': String(a.sizeBytes),
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; sandbox",
        'cache-control': 'private, no-store',
      },
    };
  }
}
