import { Readable } from 'node:stream';
import type { DataSource, EntityManager } from 'typeorm';
import type { Tx } from '../../database/sql.service';
import { ObjectStorage, orgOfStorageKey } from './object-storage';
import type { StoredObjectsRepository } from './stored-objects.repository';

/** Bytes per stored chunk (the last one of an object may be shorter). */
export const STORED_CHUNK_BYTES = 256 * 1024;

/**
 * STORAGE_DRIVER=postgres (the default): objects in `stored_objects` / `stored_object_chunks`,
 * keyed by (org_id, key), so nothing but the database is needed and every process sees every
 * object. Chunks of STORED_CHUNK_BYTES are written as the body arrives and read one at a time as
 * the reader consumes them, so at most about one chunk per stream is in memory.
 *
 * `put` writes in one transaction: the caller's when given (inside a savepoint, so a failed put
 * leaves the caller's transaction usable and without a partial object), its own otherwise. Readers
 * see an object only once that transaction commits, never a partial one. `get` reads each chunk in
 * a statement of its own (no connection is held while a slow client downloads); an object removed
 * while it is being read ends the stream with an error instead of short content.
 */
export class PostgresObjectStorage extends ObjectStorage {
  readonly transactional = true;

  constructor(
    private readonly db: DataSource,
    private readonly objects: StoredObjectsRepository,
  ) {
    super();
  }

  async put(key: string, body: Readable, m?: Tx): Promise<void> {
    const orgId = orgOfStorageKey(key);
    const write = async (tx: EntityManager): Promise<void> => {
      await this.objects.remove(orgId, key, tx);
      await this.objects.create(orgId, key, tx);
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      let chunkNo = 0;
      let size = 0;
      const flush = async () => {
        await this.objects.addChunk(orgId, key, chunkNo++, pending.length === 1 ? pending[0] : Buffer.concat(pending, pendingBytes), tx);
        size += pendingBytes;
        pending = [];
        pendingBytes = 0;
      };
      // for-await pulls the body only as fast as the chunks are written (backpressure), and
      // destroys it when a statement fails
      for await (const piece of body as AsyncIterable<Buffer | string>) {
        let rest = typeof piece === 'string' ? Buffer.from(piece) : piece;
        while (rest.length > 0) {
          const take = Math.min(STORED_CHUNK_BYTES - pendingBytes, rest.length);
          pending.push(rest.subarray(0, take));
          pendingBytes += take;
          rest = rest.subarray(take);
          if (pendingBytes === STORED_CHUNK_BYTES) await flush();
        }
      }
      if (pendingBytes > 0) await flush();
      await this.objects.complete(orgId, key, size, chunkNo, tx);
    };
    try {
      // EntityManager.transaction on a manager already in a transaction opens a savepoint
      await (m ? m.transaction(write) : this.db.transaction(write));
    } finally {
      if (!body.destroyed && !body.readableEnded) body.destroy();
    }
  }

  async get(key: string): Promise<Readable | null> {
    const orgId = orgOfStorageKey(key);
    const header = await this.objects.header(orgId, key);
    if (!header) return null;
    const objects = this.objects;
    async function* chunks(): AsyncGenerator<Buffer> {
      for (let n = 0; n < header!.chunk_count; n++) {
        const data = await objects.chunk(orgId, key, n);
        if (!data) throw new Error('The stored object was removed while it was being read');
        yield data;
      }
    }
    return Readable.from(chunks(), { objectMode: false });
  }

  async delete(key: string): Promise<void> {
    await this.objects.remove(orgOfStorageKey(key), key);
  }
}
