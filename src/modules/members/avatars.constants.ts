/** Largest avatar upload: 2 MB (interface.md "Limits"). */
export const MAX_AVATAR_BYTES = 2 * 1024 * 1024;
export const AVATARS_QUEUE = 'avatars';
/** Bull job: remove due avatar objects queued in `avatar_cleanups`. */
export const PROCESS_AVATAR_CLEANUPS = 'process-avatar-cleanups';
/**
 * A staged upload's queue row is due this long after it was written: by then the upload that
 * staged it has ended (request timeouts are far shorter), so a sweep never removes an object an
 * upload in progress is about to point at.
 */
export const STAGED_AVATAR_GRACE_SECONDS = 3600;
/** The body of a 409: the pointer changed between the caller's read and its compare-and-set. */
export const AVATAR_CONFLICT = 'Avatar changed concurrently';

/** The public URL of avatar object `key` (`<org id>/<object id>`): served by AvatarFilesController. */
export const avatarUrlOf = (key: string): string => `/api/avatars/${key}`;
