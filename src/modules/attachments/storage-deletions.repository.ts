import { Injectable } from '@nestjs/common';
import { type Tx, Sql } from '../../database/sql.service';

/** A due queued object removal, and whether an attachment row still references its object. */
export interface DueStorageDeletion {
  id: string;
  storage_key: string;
  attempts: number;
  in_use: boolean;
}

/** Statements of the stored-object removal queue (`storage_deletions`). */
@Injectable()
export class StorageDeletionsRepository {
  constructor(private readonly sql: Sql) {}

  /** Queues the removal of stored object `storageKey`. */
  async queue(storageKey: string, m?: Tx): Promise<void> {
    await this.sql.run('INSERT INTO storage_deletions (storage_key) VALUES ($1)', [storageKey], m);
  }

  /** Up to `limit` due removals, oldest due first, claimed until the transaction ends (SKIP LOCKED). */
  claimDue(limit: number, m: Tx): Promise<DueStorageDeletion[]> {
    return this.sql.rows<DueStorageDeletion>(
      `SELECT sd.id, sd.storage_key, sd.attempts,
                EXISTS (SELECT 1 FROM attachments a WHERE a.storage_key = sd.storage_key) AS in_use
           FROM storage_deletions sd
          WHERE sd.next_attempt_at <= now()
          ORDER BY sd.next_attempt_at
          LIMIT $1
          FOR UPDATE SKIP LOCKED`,
      [limit],
      m,
    );
  }

  /** Removes queue row `id` (its object is gone). */
  async remove(id: string, m: Tx): Promise<void> {
    await this.sql.run('DELETE FROM storage_deletions WHERE id = $1', [id], m);
  }

  /** Records failed attempt number `attempts` of row `id` and retries it `delaySeconds` from now. */
  async retryLater(id: string, attempts: number, error: string, delaySeconds: number, m: Tx): Promise<void> {
    await this.sql.run(
      `UPDATE storage_deletions SET attempts = $2, last_error = $3, next_attempt_at = now() + make_interval(secs => $4) WHERE id = $1`,
      [id, attempts, error, delaySeconds],
      m,
    );
  }
}
