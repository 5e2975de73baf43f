import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { Inject, Logger } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Webhook } from 'standardwebhooks';
import { APP_CONFIG, type AppConfig } from '../../../../config/config';
import { DomainError } from '../../../../common/errors/domain-error';
import { assertWellFormedInput } from '../../../../common/http/well-formed';
import { ObjectStorage, newStorageKey } from '../../../../common/storage/object-storage';
import { TxRunner } from '../../../../database/tx-runner';
import { addressList, decodeBase64, matchMailbox, parseAddress, safeContentType, safeFileName, sanitizeEmailHtml, textBody } from '../../email-content';
import { ATTACHMENT_MAX_BYTES, ATTACHMENTS_PER_MESSAGE_MAX, MESSAGE_ATTACHMENTS_MAX_BYTES, RETENTION_DAYS } from '../../inbox.constants';
import { InboxRepository, type NewAttachment } from '../../inbox.repository';
import type { InboxIntakeResponse, InboxIntakeSkipped } from '../../inbox.response';
import { ReceiveEmailCommand } from './receive-email.command';

const refuse = (status: number, code: string) => new DomainError(status, code, code);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const ID_RE = /^[A-Za-z0-9_.:@<>+=-]{1,255}$/;

const header = (h: Record<string, string | string[] | undefined>, ...names: string[]): string | undefined => {
  for (const n of names) {
    const v = h[n];
    if (typeof v === 'string') return v;
  }
  return undefined;
};

/** An attachment ready to store: its row and, when kept, its bytes. */
interface Prepared {
  row: NewAttachment;
  bytes: Buffer | null;
}

/**
 * `POST /api/webhooks/resend/inbound`: the Standard Webhooks signature (`webhook-*` headers, or
 * the provider's `svix-*` names) is verified with the `standardwebhooks` library over the raw body
 * (at most 256 KiB) before anything is parsed; unconfigured intake is 404. `email.received` events
 * are matched to a configured mailbox (To, then CC, then BCC; the first configured address wins)
 * and stored once per provider message id: sanitized HTML (no active content, no images), bounded
 * text, and private attachments through the object storage (over 10 MiB each or 25 MiB per message:
 * `skipped_oversize`, no bytes kept). Other signed types are `{ skipped: true }`.
 */
@CommandHandler(ReceiveEmailCommand)
export class ReceiveEmailHandler implements ICommandHandler<ReceiveEmailCommand, InboxIntakeResponse | InboxIntakeSkipped> {
  private readonly log = new Logger('InboxIntake');
  private readonly webhook: Webhook | null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly tx: TxRunner,
    private readonly repo: InboxRepository,
    private readonly storage: ObjectStorage,
  ) {
    this.webhook = config.inbox.webhookSecret ? new Webhook(config.inbox.webhookSecret) : null;
  }

  async execute({ raw, headers }: ReceiveEmailCommand): Promise<InboxIntakeResponse | InboxIntakeSkipped> {
    if (!this.webhook) throw refuse(404, 'not_found');
    const sig = {
      'webhook-id': header(headers, 'webhook-id', 'svix-id') ?? '',
      'webhook-timestamp': header(headers, 'webhook-timestamp', 'svix-timestamp') ?? '',
      'webhook-signature': header(headers, 'webhook-signature', 'svix-signature') ?? '',
    };
    let event: unknown;
    try {
      event = this.webhook.verify(raw, sig);
    } catch {
      throw refuse(401, 'invalid_signature');
    }
    try {
      assertWellFormedInput({ params: {}, query: {}, body: event });
    } catch {
      throw refuse(400, 'invalid_payload');
    }
    if (!isObject(event) || typeof event.type !== 'string') throw refuse(400, 'invalid_payload');
    if (event.type !== 'email.received') return { skipped: true };
    const data = isObject(event.data) ? event.data : null;
    const providerId = data && typeof data.email_id === 'string' && ID_RE.test(data.email_id) ? data.email_id : null;
    if (!data || !providerId) throw refuse(400, 'invalid_payload');

    const to = addressList(data.to);
    const cc = addressList(data.cc);
    const mailbox = matchMailbox([to, cc, addressList(data.bcc)], this.config.inbox.mailboxes);
    if (!mailbox) return { accepted: false, duplicate: false, email_id: null, code: 'no_matching_mailbox' };

    const orgId = mailbox.orgId;
    const from = parseAddress(data.from);
    const receivedAt = typeof data.created_at === 'string' && !Number.isNaN(Date.parse(data.created_at)) ? new Date(data.created_at) : new Date();
    const id = randomUUID();
    const attachments = this.prepare(orgId, data.attachments);
    const email = {
      orgId,
      id,
      providerEmailId: providerId,
      mailbox: mailbox.address,
      messageId: typeof data.message_id === 'string' ? data.message_id.slice(0, 998) : null,
      fromAddress: from?.address ?? null,
      fromName: from?.name ?? null,
      to,
      cc,
      subject: typeof data.subject === 'string' ? data.subject.slice(0, 998) : '',
      bodyText: textBody(data.text),
      bodyHtml: sanitizeEmailHtml(data.html),
      receivedAt,
      retainUntil: new Date(receivedAt.getTime() + RETENTION_DAYS * 86_400_000),
    };

    const stored = attachments.filter((a) => a.bytes !== null);
    const outside = !this.storage.transactional;
    if (outside) for (const a of stored) await this.storage.put(a.row.storageKey!, Readable.from(a.bytes!));
    let inserted = false;
    try {
      inserted = await this.tx.run(async (m) => {
        if (!(await this.repo.insertEmail(email, m))) return false;
        for (const [position, a] of attachments.entries()) {
          if (!outside && a.bytes) await this.storage.put(a.row.storageKey!, Readable.from(a.bytes), m);
          await this.repo.insertAttachment(orgId, id, position, a.row, m);
        }
        await this.repo.insertAction(orgId, randomUUID(), id, 'received', null, { mailbox: mailbox.address, attachments: attachments.length }, m);
        return true;
      });
    } finally {
      if (outside && !inserted)
        for (const a of stored) await this.storage.delete(a.row.storageKey!).catch(() => this.log.warn('Could not remove an unused inbox object'));
    }
    if (!inserted) return { accepted: true, duplicate: true, email_id: await this.existingId(orgId, providerId), code: null };
    return { accepted: true, duplicate: false, email_id: id, code: null };
  }

  private async existingId(orgId: string, providerId: string): Promise<string | null> {
    return (await this.repo.idByProviderId(orgId, providerId)) ?? null;
  }

  /** Attachment rows and the bytes to keep, within the per-file and per-message limits. */
  private prepare(orgId: string, list: unknown): Prepared[] {
    if (!Array.isArray(list)) return [];
    let total = 0;
    return list.slice(0, ATTACHMENTS_PER_MESSAGE_MAX).map((a): Prepared => {
      const item = isObject(a) ? a : {};
      const bytes = decodeBase64(item.content);
      const declared = typeof item.size === 'number' && Number.isSafeInteger(item.size) && item.size >= 0 ? item.size : 0;
      const size = bytes ? bytes.length : declared;
      const base = { id: randomUUID(), fileName: safeFileName(item.filename), contentType: safeContentType(item.content_type), sizeBytes: size };
      if (size > ATTACHMENT_MAX_BYTES || total + size > MESSAGE_ATTACHMENTS_MAX_BYTES)
        return { row: { ...base, status: 'skipped_oversize', storageKey: null }, bytes: null };
      if (!bytes) return { row: { ...base, status: 'unavailable', storageKey: null }, bytes: null };
      total += size;
      return { row: { ...base, status: 'stored', storageKey: newStorageKey(orgId) }, bytes };
    });
  }
}
