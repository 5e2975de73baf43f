import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DomainError, Errors } from '../../../../common/errors/domain-error';
import { DownloadSigner } from '../../download-signer';
import { InboxAccess } from '../../inbox-access';
import { DOWNLOAD_URL_TTL_SECONDS } from '../../inbox.constants';
import { InboxRepository } from '../../inbox.repository';
import type { InboxDownloadResponse } from '../../inbox.response';
import { CreateDownloadUrlQuery } from './create-download-url.query';

/**
 * A signed URL of one stored attachment, valid 60 seconds, served by this service from its private
 * storage. Errors: 401 (no credentials), 403 `forbidden` (not an inbox operator), 404 `not_found`
 * (no such message or attachment in the organization), 409 `attachment_unavailable` (its bytes
 * were not kept: oversize or not sent).
 */
@QueryHandler(CreateDownloadUrlQuery)
export class CreateDownloadUrlHandler implements IQueryHandler<CreateDownloadUrlQuery, InboxDownloadResponse> {
  constructor(
    private readonly inbox: InboxAccess,
    private readonly repo: InboxRepository,
    private readonly signer: DownloadSigner,
  ) {}

  async execute({ actor, emailId, attachmentId, origin }: CreateDownloadUrlQuery): Promise<InboxDownloadResponse> {
    this.inbox.assertOperator(actor);
    const a = await this.repo.attachment(actor.orgId, emailId, attachmentId);
    if (!a) throw Errors.notFound('Attachment not found');
    if (a.status !== 'stored' || !a.storage_key) throw new DomainError(409, 'attachment_unavailable', `The attachment's content was not kept (${a.status})`);
    const { expires, signature } = this.signer.sign({ orgId: actor.orgId, emailId, attachmentId });
    const url = `${origin}/api/inbox-attachments/${actor.orgId}/${emailId}/${attachmentId}?expires=${expires}&signature=${signature}`;
    return { url, expires_at: new Date(expires * 1000).toISOString(), expires_in: DOWNLOAD_URL_TTL_SECONDS };
  }
}
