import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Tx } from '../../database/sql.service';

/**
 * Where file bytes live (attachments now; later every other stored file), shared by every API and
 * worker process: one interface, two drivers chosen by STORAGE_DRIVER (StorageModule):
 * PostgresObjectStorage (default: a table keyed by organization, in chunks) and S3ObjectStorage
 * (any S3-compatible bucket). Local disk is gone: a file on one process's disk cannot be served by
 * another replica, nor deleted by the worker.
 *
 * Keys are `<org id>/<48 hex>` (newStorageKey): the organization is part of every key, so each
 * driver keeps objects per organization (the table's key, the bucket's prefix). Contract of every
 * driver:
 * - `put` is atomic: a reader never sees a partial object; on any error nothing is left behind and
 *   the error is rethrown (the body's own error when the body failed). It reads the body as a
 *   stream and never holds the whole file in memory.
 * - `get` streams the object, or answers null when it does not exist.
 * - `delete` is idempotent: a missing object is not an error.
 * - A key that is not a storage key is refused (`Invalid storage key`) by every method.
 */
export abstract class ObjectStorage {
  /**
   * True when `put` given the caller's transaction `m` writes inside it (PostgreSQL): the object
   * then commits or rolls back with the caller's rows. False: `put` stores at once whatever `m`
   * is, and a caller whose transaction fails afterwards must remove the object itself.
   */
  abstract readonly transactional: boolean;
  /** Stores the whole stream under `key` (replacing an object of that key), inside `m` when the driver is transactional. */
  abstract put(key: string, body: Readable, m?: Tx): Promise<void>;
  /** A stream of the object, or null when it does not exist. */
  abstract get(key: string): Promise<Readable | null>;
  /** Removes the object; nothing happens when there is none. */
  abstract delete(key: string): Promise<void>;
}

/** Random storage key of an object of organization `orgId`. */
export const newStorageKey = (orgId: string): string => `${orgId}/${randomBytes(24).toString('hex')}`;

const KEY_RE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/[0-9a-f]{48}$/;

/** The organization of storage key `key`; throws `Invalid storage key` for anything newStorageKey cannot have made. */
export function orgOfStorageKey(key: string): string {
  const m = KEY_RE.exec(key);
  if (!m) throw new Error('Invalid storage key');
  return m[1];
}
