export const INBOX_STATUSES = ['untriaged', 'triaged', 'action_required', 'waiting', 'resolved', 'ignored', 'quarantined'] as const;
export type InboxStatus = (typeof INBOX_STATUSES)[number];
export const INBOX_CATEGORIES = ['support', 'security', 'sales', 'partnership', 'press', 'personal', 'spam', 'other'] as const;
export type InboxCategory = (typeof INBOX_CATEGORIES)[number];

/** Intake bodies are capped at 256 KiB. */
export const INTAKE_MAX_BYTES = 256 * 1024;
/** One attachment over 10 MiB, or what would take a message over 25 MiB, is recorded as `skipped_oversize`. */
export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
export const MESSAGE_ATTACHMENTS_MAX_BYTES = 25 * 1024 * 1024;
export const ATTACHMENTS_PER_MESSAGE_MAX = 50;
/** Signed attachment URLs live 60 seconds. */
export const DOWNLOAD_URL_TTL_SECONDS = 60;
/** Messages are kept one year. */
export const RETENTION_DAYS = 365;
export const TEXT_BODY_MAX = 100_000;
export const HTML_BODY_MAX = 200_000;
export const NOTE_MAX = 10_000;
