import { Injectable } from '@nestjs/common';
import { Sql, type Tx } from '../../database/sql.service';
import type { InboxCategory, InboxStatus } from './inbox.constants';

/** A list row of inbox_emails (no bodies, no headers). */
export interface EmailSummaryRow {
  id: string;
  mailbox: string;
  from_address: string | null;
  from_name: string | null;
  subject: string;
  status: InboxStatus;
  category: InboxCategory | null;
  priority: number | null;
  ingestion_status: string;
  linked_issue_id: string | null;
  received_at: Date;
  retain_until: Date;
  created_at: Date;
  updated_at: Date;
  attachment_count: number;
}

export interface EmailRow extends EmailSummaryRow {
  message_id: string | null;
  to_addresses: string[];
  cc_addresses: string[];
  body_text: string | null;
  body_html_sanitized: string | null;
}

export interface AttachmentRow {
  id: string;
  email_id: string;
  file_name: string;
  content_type: string;
  size_bytes: string | number;
  status: 'stored' | 'skipped_oversize' | 'unavailable';
  storage_key: string | null;
  created_at: Date;
}

export interface ActionRow {
  id: string;
  action: string;
  actor_member_id: string | null;
  detail: Record<string, unknown>;
  created_at: Date;
}

export interface NewEmail {
  orgId: string;
  id: string;
  providerEmailId: string;
  mailbox: string;
  messageId: string | null;
  fromAddress: string | null;
  fromName: string | null;
  to: string[];
  cc: string[];
  subject: string;
  bodyText: string | null;
  bodyHtml: string | null;
  receivedAt: Date;
  retainUntil: Date;
}

export interface NewAttachment {
  id: string;
  fileName: string;
  contentType: string;
  sizeBytes: number;
  status: AttachmentRow['status'];
  storageKey: string | null;
}

export interface EmailChanges {
  status?: InboxStatus;
  category?: InboxCategory | null;
  priority?: number | null;
  linkedIssueId?: string | null;
}

const SUMMARY = `e.id, e.mailbox, e.from_address, e.from_name, e.subject, e.status, e.category, e.priority, e.ingestion_status, e.linked_issue_id,
  e.received_at, e.retain_until, e.created_at, e.updated_at,
  (SELECT count(*)::int FROM inbox_attachments a WHERE a.org_id = e.org_id AND a.email_id = e.id) AS attachment_count`;
const DETAIL = `${SUMMARY}, e.message_id, e.to_addresses, e.cc_addresses, e.body_text, e.body_html_sanitized`;
const ATTACHMENT = 'id, email_id, file_name, content_type, size_bytes, status, storage_key, created_at';

/** The private inbox: messages, their private attachments and the append-only audit actions. */
@Injectable()
export class InboxRepository {
  constructor(private readonly sql: Sql) {}

  /** Stores a new message (false when this provider message id is already stored: a replay). */
  async insertEmail(e: NewEmail, m: Tx): Promise<boolean> {
    const r = await this.sql.row<{ id: string }>(
      `INSERT INTO inbox_emails (org_id, id, provider_email_id, mailbox, message_id, from_address, from_name, to_addresses, cc_addresses, subject,
         body_text, body_html_sanitized, ingestion_status, received_at, retain_until)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, $10, $11, $12, 'complete', $13, $14)
       ON CONFLICT (org_id, provider_email_id) DO NOTHING RETURNING id`,
      [
        e.orgId,
        e.id,
        e.providerEmailId,
        e.mailbox,
        e.messageId,
        e.fromAddress,
        e.fromName,
        JSON.stringify(e.to),
        JSON.stringify(e.cc),
        e.subject,
        e.bodyText,
        e.bodyHtml,
        e.receivedAt,
        e.retainUntil,
      ],
      m,
    );
    return r !== undefined;
  }

  async idByProviderId(orgId: string, providerEmailId: string): Promise<string | undefined> {
    return (await this.sql.row<{ id: string }>('SELECT id FROM inbox_emails WHERE org_id = $1 AND provider_email_id = $2', [orgId, providerEmailId]))?.id;
  }

  async insertAttachment(orgId: string, emailId: string, position: number, a: NewAttachment, m: Tx): Promise<void> {
    await this.sql.run(
      `INSERT INTO inbox_attachments (org_id, id, email_id, position, file_name, content_type, size_bytes, status, storage_key) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [orgId, a.id, emailId, position, a.fileName, a.contentType, a.sizeBytes, a.status, a.storageKey],
      m,
    );
  }

  async insertAction(
    orgId: string,
    id: string,
    emailId: string,
    action: string,
    actorMemberId: string | null,
    detail: Record<string, unknown>,
    m?: Tx,
  ): Promise<void> {
    await this.sql.run(
      'INSERT INTO inbox_email_actions (org_id, id, email_id, action, actor_member_id, detail) VALUES ($1, $2, $3, $4, $5, $6::jsonb)',
      [orgId, id, emailId, action, actorMemberId, JSON.stringify(detail)],
      m,
    );
  }

  async list(orgId: string, status: InboxStatus, limit: number, offset: number): Promise<{ rows: EmailSummaryRow[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.sql.rows<EmailSummaryRow>(
        `SELECT ${SUMMARY} FROM inbox_emails e WHERE e.org_id = $1 AND e.status = $2 ORDER BY e.received_at DESC, e.id LIMIT $3 OFFSET $4`,
        [orgId, status, limit, offset],
      ),
      this.sql.row<{ n: number }>('SELECT count(*)::int AS n FROM inbox_emails WHERE org_id = $1 AND status = $2', [orgId, status]),
    ]);
    return { rows, total: count?.n ?? 0 };
  }

  email(orgId: string, id: string, m?: Tx, lock = false): Promise<EmailRow | undefined> {
    return this.sql.row<EmailRow>(`SELECT ${DETAIL} FROM inbox_emails e WHERE e.org_id = $1 AND e.id = $2${lock ? ' FOR UPDATE' : ''}`, [orgId, id], m);
  }

  attachments(orgId: string, emailId: string, m?: Tx): Promise<AttachmentRow[]> {
    return this.sql.rows<AttachmentRow>(
      `SELECT ${ATTACHMENT} FROM inbox_attachments WHERE org_id = $1 AND email_id = $2 ORDER BY position`,
      [orgId, emailId],
      m,
    );
  }

  attachment(orgId: string, emailId: string, id: string): Promise<AttachmentRow | undefined> {
    return this.sql.row<AttachmentRow>(`SELECT ${ATTACHMENT} FROM inbox_attachments WHERE org_id = $1 AND email_id = $2 AND id = $3`, [orgId, emailId, id]);
  }

  actions(orgId: string, emailId: string, m?: Tx): Promise<ActionRow[]> {
    return this.sql.rows<ActionRow>(
      'SELECT id, action, actor_member_id, detail, created_at FROM inbox_email_actions WHERE org_id = $1 AND email_id = $2 ORDER BY created_at, id',
      [orgId, emailId],
      m,
    );
  }

  async update(orgId: string, id: string, c: EmailChanges, m: Tx): Promise<void> {
    await this.sql.run(
      `UPDATE inbox_emails SET
         status = CASE WHEN $3::boolean THEN $4 ELSE status END,
         category = CASE WHEN $5::boolean THEN $6 ELSE category END,
         priority = CASE WHEN $7::boolean THEN $8::smallint ELSE priority END,
         linked_issue_id = CASE WHEN $9::boolean THEN $10::uuid ELSE linked_issue_id END,
         updated_at = now()
       WHERE org_id = $1 AND id = $2`,
      [
        orgId,
        id,
        c.status !== undefined,
        c.status ?? null,
        c.category !== undefined,
        c.category ?? null,
        c.priority !== undefined,
        c.priority ?? null,
        c.linkedIssueId !== undefined,
        c.linkedIssueId ?? null,
      ],
      m,
    );
  }
}
