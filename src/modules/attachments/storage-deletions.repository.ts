import { Injectable } from '@nestjs/common';
import { type Tx, Sql } from '../../database/sql.service';

/** A due queued object removal, and whether an attachment row still references its object. */
export interface DueStorageDeletion {
  org_id: string;
  id: string;
  storage_key: string;
  attempts: number;
  in_use: boolean;
}

/** Statements of the stored-object removal queue (`storage_deletions`). */
@Injectable()
export class StorageDeletionsRepository {
  constructor(private readonly sql: Sql) {}

  /** Queues the removal of stored object `storageKey` of organization `orgId`. */
  async queue(orgId: string, storageKey: string, m?: Tx): Promise<void> {
    await this.sql.run('INSERT INTO storage_deletions (org_id, storage_key) VALUES ($1, $2)', [orgId, storageKey], m);
  }

  /**
   * Up to `limit` due removals of any organization, oldest due first, claimed until the transaction
   * ends (SKIP LOCKED). Crosses organizations (a multi-shard query under Citus: docs/CITUS.md).
   */
  claimDue(limit: number, m: Tx): Promise<DueStorageDeletion[]> {
    return this.sql.rows<DueStorageDeletion>(
      `SELECT sd.org_id, sd.id, sd.storage_key, sd.attempts,
                EXISTS (SELECT 1 FROM attachments a WHERE a.org_id = sd.org_id AND a.storage_key = sd.storage_key) AS in_use
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
  async remove(orgId: string, id: string, m: Tx): Promise<void> {
    await this.sql.run('DELETE FROM storage_deletions WHERE org_id = $1 AND id = $2', [orgId, id], m);
  }

  /** Records failed attempt number `attempts` of row `id` and retries it `delaySeconds` from now. */
  async retryLater(orgId: string, id: string, attempts: number, error: string, delaySeconds: number, m: Tx): Promise<void> {
    await this.sql.run(
      `UPDATE storage_deletions SET attempts = $3, last_error = $4, next_attempt_at = now() + make_interval(secs => $5) WHERE org_id = $1 AND id = $2`,
      [orgId, id, attempts, error, delaySeconds],
      m,
    );
  }
}
