import { Module } from '@nestjs/common';
import { StorageModule } from '../../common/storage/storage.module';
import { ReceiveEmailHandler } from './commands/receive-email/receive-email.handler';
import { UpdateEmailHandler } from './commands/update-email/update-email.handler';
import { DownloadSigner } from './download-signer';
import { InboxAccess } from './inbox-access';
import { InboxPublicController } from './inbox-public.controller';
import { InboxController } from './inbox.controller';
import { InboxRepository } from './inbox.repository';
import { CreateDownloadUrlHandler } from './queries/create-download-url/create-download-url.handler';
import { GetDownloadHandler } from './queries/get-download/get-download.handler';
import { GetEmailHandler } from './queries/get-email/get-email.handler';
import { ListEmailsHandler } from './queries/list-emails/list-emails.handler';

/**
 * The private inbound email inbox.
 * - Intake: `POST /api/webhooks/resend/inbound`, Standard Webhooks signature, mailboxes from
 *   INBOX_MAILBOXES (address → organization), attachments kept privately in the object storage.
 * - Operators (INBOX_OPERATOR_MEMBER_IDS; everyone else 403, other organizations 404) list, read
 *   and triage messages, and get 60-second signed URLs (DownloadSigner) that this service serves
 *   from its private storage.
 */
@Module({
  imports: [StorageModule],
  controllers: [InboxController, InboxPublicController],
  providers: [
    InboxRepository,
    InboxAccess,
    DownloadSigner,
    ReceiveEmailHandler,
    UpdateEmailHandler,
    ListEmailsHandler,
    GetEmailHandler,
    CreateDownloadUrlHandler,
    GetDownloadHandler,
  ],
})
export class InboxModule {}
