import { Injectable } from '@nestjs/common';
import { type Tx, Sql } from '../../database/sql.service';

/** Header of a complete stored object. */
export interface StoredObjectHeader {
  size_bytes: string;
  chunk_count: number;
}

/**
 * Statements of the PostgreSQL object store: `stored_objects` (one row per object, keyed by
 * organization and key) and `stored_object_chunks` (its bytes, in numbered chunks; removed with
 * their object by the foreign key's cascade). See PostgresObjectStorage.
 */
@Injectable()
export class StoredObjectsRepository {
  constructor(private readonly sql: Sql) {}

  /** Removes object `key` of `orgId` and its chunks; answers whether there was one. */
  async remove(orgId: string, key: string, m?: Tx): Promise<boolean> {
    return (await this.sql.run('DELETE FROM stored_objects WHERE org_id = $1 AND key = $2', [orgId, key], m)) > 0;
  }

  /** Starts object `key` (empty; its chunks follow, then `complete`). */
  async create(orgId: string, key: string, m: Tx): Promise<void> {
    await this.sql.run('INSERT INTO stored_objects (org_id, key) VALUES ($1, $2)', [orgId, key], m);
  }

  /** Chunk number `chunkNo` of object `key`. */
  async addChunk(orgId: string, key: string, chunkNo: number, data: Buffer, m: Tx): Promise<void> {
    await this.sql.run('INSERT INTO stored_object_chunks (org_id, key, chunk_no, data) VALUES ($1, $2, $3, $4)', [orgId, key, chunkNo, data], m);
  }

  /** Records the size and chunk count of object `key` once every chunk is written. */
  async complete(orgId: string, key: string, sizeBytes: number, chunkCount: number, m: Tx): Promise<void> {
    await this.sql.run('UPDATE stored_objects SET size_bytes = $3, chunk_count = $4 WHERE org_id = $1 AND key = $2', [orgId, key, sizeBytes, chunkCount], m);
  }

  /** Header of object `key`, or undefined. */
  header(orgId: string, key: string): Promise<StoredObjectHeader | undefined> {
    return this.sql.row<StoredObjectHeader>('SELECT size_bytes, chunk_count FROM stored_objects WHERE org_id = $1 AND key = $2', [orgId, key]);
  }

  /** The bytes of chunk `chunkNo` of object `key`, or undefined (the object was removed meanwhile). */
  async chunk(orgId: string, key: string, chunkNo: number): Promise<Buffer | undefined> {
    const row = await this.sql.row<{ data: Buffer }>('SELECT data FROM stored_object_chunks WHERE org_id = $1 AND key = $2 AND chunk_no = $3', [
      orgId,
      key,
      chunkNo,
    ]);
    return row?.data;
  }
}
