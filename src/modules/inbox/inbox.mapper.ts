import type { ActionRow, AttachmentRow, EmailRow, EmailSummaryRow } from './inbox.repository';
import type { InboxActionResponse, InboxAttachmentResponse, InboxEmailResponse, InboxEmailSummary } from './inbox.response';

export function toSummary(r: EmailSummaryRow): InboxEmailSummary {
  return {
    id: r.id,
    mailbox: r.mailbox,
    from_address: r.from_address,
    from_name: r.from_name,
    subject: r.subject,
    status: r.status,
    category: r.category,
    priority: r.priority,
    ingestion_status: r.ingestion_status as InboxEmailSummary['ingestion_status'],
    linked_issue_id: r.linked_issue_id,
    received_at: r.received_at.toISOString(),
    retain_until: r.retain_until.toISOString(),
    attachment_count: r.attachment_count,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

export function toAttachment(r: AttachmentRow): InboxAttachmentResponse {
  return {
    id: r.id,
    file_name: r.file_name,
    content_type: r.content_type,
    size_bytes: Number(r.size_bytes),
    status: r.status,
    created_at: r.created_at.toISOString(),
  };
}

export function toAction(r: ActionRow): InboxActionResponse {
  return { id: r.id, action: r.action, actor_member_id: r.actor_member_id, detail: r.detail, created_at: r.created_at.toISOString() };
}

export function toEmail(r: EmailRow, attachments: AttachmentRow[], actions: ActionRow[]): InboxEmailResponse {
  return {
    ...toSummary(r),
    message_id: r.message_id,
    to: r.to_addresses,
    cc: r.cc_addresses,
    body_text: r.body_text,
    body_html_sanitized: r.body_html_sanitized,
    attachments: attachments.map(toAttachment),
    actions: actions.map(toAction),
  };
}
