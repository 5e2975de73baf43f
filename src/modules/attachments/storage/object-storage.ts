import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Where attachment bytes live. Keys are opaque relative paths (`<org>/<random>`), chosen by the
 * caller. Implementations must make `put` atomic (a reader never sees a partial object) and
 * `delete` idempotent (a missing object is not an error).
 */
export abstract class ObjectStorage {
  /** Stores the whole stream under `key`; on any error nothing is left behind and the error is rethrown. */
  abstract put(key: string, body: Readable): Promise<void>;
  /** A stream of the object, or null when it does not exist. */
  abstract get(key: string): Promise<Readable | null>;
  abstract delete(key: string): Promise<void>;
}

/** Random object key of an organization's attachment. */
export const newStorageKey = (orgId: string): string => `${orgId}/${randomBytes(24).toString('hex')}`;

const KEY_RE = /^[0-9a-f-]{36}\/[0-9a-f]{48}$/;

/** Local-disk storage under `<root>` (by default `<DATA_DIR>/attachments`). */
export class LocalDiskObjectStorage extends ObjectStorage {
  private readonly root: string;

  constructor(root: string) {
    super();
    this.root = resolve(root);
  }

  private path(key: string): string {
    if (!KEY_RE.test(key)) throw new Error('Invalid storage key');
    const p = resolve(this.root, key);
    if (!p.startsWith(this.root + sep)) throw new Error('Invalid storage key');
    return p;
  }

  async put(key: string, body: Readable): Promise<void> {
    const target = this.path(key);
    await mkdir(dirname(target), { recursive: true });
    const partial = join(dirname(target), `.partial-${randomBytes(8).toString('hex')}`);
    try {
      await pipeline(body, createWriteStream(partial, { flags: 'wx', mode: 0o600 }));
      await rename(partial, target);
    } catch (e) {
      await rm(partial, { force: true });
      throw e;
    }
  }

  async get(key: string): Promise<Readable | null> {
    const p = this.path(key);
    try {
      await stat(p);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
    return createReadStream(p);
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }
}
