/** A message in an inbox list (no bodies, no headers). */
export class InboxEmailSummary {
  id: string;
  /** The configured inbox address that received it */
  mailbox: string;
  from_address: string | null;
  from_name: string | null;
  subject: string;
  /** `untriaged`, `triaged`, `action_required`, `waiting`, `resolved`, `ignored` or `quarantined` */
  status: 'untriaged' | 'triaged' | 'action_required' | 'waiting' | 'resolved' | 'ignored' | 'quarantined';
  /** `support`, `security`, `sales`, `partnership`, `press`, `personal`, `spam`, `other` or null */
  category: 'support' | 'security' | 'sales' | 'partnership' | 'press' | 'personal' | 'spam' | 'other' | null;
  /** 0 (urgent) through 4 (low), or null */
  priority: number | null;
  /** `pending`, `complete`, `failed` or `quarantined` */
  ingestion_status: 'pending' | 'complete' | 'failed' | 'quarantined';
  /** An issue of the same organization the message is linked to */
  linked_issue_id: string | null;
  received_at: string;
  /** One-year retention deadline */
  retain_until: string;
  attachment_count: number;
  created_at: string;
  updated_at: string;
}
export class InboxListResponse {
  emails: InboxEmailSummary[];
  total: number;
  limit: number;
  offset: number;
}

/** Private metadata of an attachment: bytes only through a 60-second signed download URL. */
export class InboxAttachmentResponse {
  id: string;
  file_name: string;
  content_type: string;
  size_bytes: number;
  /** `stored` (downloadable), `skipped_oversize` (over 10 MiB, or over 25 MiB for the message) or `unavailable` (no content was sent) */
  status: 'stored' | 'skipped_oversize' | 'unavailable';
  created_at: string;
}
/** An append-only audit action (ingestion or an operator's change). */
export class InboxActionResponse {
  id: string;
  /** `received`, `status_changed`, `category_changed`, `priority_changed`, `issue_linked`, `issue_unlinked` or `note_added` */
  action: string;
  /** The operator (null: ingestion) */
  actor_member_id: string | null;
  /** Safe details (`from`/`to` of a change, the note text, the linked issue id) */
  detail: Record<string, unknown>;
  created_at: string;
}
/** One message with its untrusted content (plain text and sanitized HTML), attachments and audit actions. */
export class InboxEmailResponse extends InboxEmailSummary {
  message_id: string | null;
  to: string[];
  cc: string[];
  body_text: string | null;
  /** Stored HTML with active content and remote images removed */
  body_html_sanitized: string | null;
  attachments: InboxAttachmentResponse[];
  actions: InboxActionResponse[];
}
export class InboxEmailEnvelope {
  email: InboxEmailResponse;
}

/** A signed private-storage URL of one attachment. */
export class InboxDownloadResponse {
  /** Absolute URL served by this service; expires 60 seconds after it was issued */
  url: string;
  expires_at: string;
  /** Always 60 */
  expires_in: number;
}

/** The intake's answer for an `email.received` event. */
export class InboxIntakeResponse {
  /** True when the message is stored (now or before) */
  accepted: boolean;
  /** True when this provider message was already stored */
  duplicate: boolean;
  /** The stored message id (null when not accepted) */
  email_id: string | null;
  /** Null when accepted; `no_matching_mailbox` when no recipient is a configured inbox address */
  code: string | null;
}
/** A signed event of a type the intake does not process. */
export class InboxIntakeSkipped {
  /** Always true */
  skipped: boolean;
}
