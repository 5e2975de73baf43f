/** Largest attachment: 10 MiB. */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
export const ATTACHMENTS_QUEUE = 'attachments';
/** Bull job: remove due objects queued in `storage_deletions`. */
export const PROCESS_STORAGE_DELETIONS = 'process-storage-deletions';
