import type { Readable } from 'node:stream';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DomainError, Errors } from '../../../../common/errors/domain-error';
import { isUuid } from '../../../../common/http/validation';
import { ObjectStorage } from '../../../../common/storage/object-storage';
import { DownloadSigner } from '../../download-signer';
import { InboxRepository } from '../../inbox.repository';
import { GetDownloadQuery } from './get-download.query';

export interface DownloadContent {
  stream: Readable;
  headers: Record<string, string>;
}

/**
 * The bytes behind a signed URL: refused (403 `invalid_signature` / `url_expired`) unless the URL is
 * exactly one this service issued less than 60 seconds ago; always a download
 * (`application/octet-stream`, `Content-Disposition: attachment`, `nosniff`, not cached).
 */
@QueryHandler(GetDownloadQuery)
export class GetDownloadHandler implements IQueryHandler<GetDownloadQuery, DownloadContent> {
  constructor(
    private readonly signer: DownloadSigner,
    private readonly repo: InboxRepository,
    private readonly storage: ObjectStorage,
  ) {}

  async execute({ orgId, emailId, attachmentId, expires, signature }: GetDownloadQuery): Promise<DownloadContent> {
    if (![orgId, emailId, attachmentId].every(isUuid)) throw Errors.notFound();
    const problem = this.signer.check({ orgId, emailId, attachmentId }, expires, signature);
    if (problem) throw new DomainError(403, problem, problem === 'url_expired' ? 'The download URL has expired' : 'The download URL is not valid');
    const a = await this.repo.attachment(orgId, emailId, attachmentId);
    const stream = a?.status === 'stored' && a.storage_key ? await this.storage.get(a.storage_key) : null;
    if (!a || !stream) throw Errors.notFound('Attachment not found');
    const ascii = a.file_name.replace(/[^\x20-\x7e]|["\\]/g, '_');
    return {
      stream,
      headers: {
        'content-type': 'application/octet-stream',
        'content-disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(a.file_name)}`,
        'x-content-type-options': 'nosniff',
        'cache-control': 'private, no-store',
        'content-length': String(Number(a.size_bytes)),
      },
    };
  }
}
