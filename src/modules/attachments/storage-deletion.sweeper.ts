import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ObjectStorage } from './storage/object-storage';

/** Seconds until the next attempt after `attempts` failures: 30 s doubling, at most 1 hour. */
export const retryDelaySeconds = (attempts: number): number => Math.min(30 * 2 ** Math.max(0, attempts - 1), 3600);

/**
 * Drains `storage_deletions`: removes each due object and its queue row; a failure keeps the row
 * with the error and a later `next_attempt_at`. Rows are claimed with SKIP LOCKED, so several
 * workers can sweep at once. An object still referenced by an attachment row is never removed.
 */
@Injectable()
export class StorageDeletionSweeper {
  private readonly logger = new Logger(StorageDeletionSweeper.name);

  constructor(
    private readonly db: DataSource,
    private readonly storage: ObjectStorage,
  ) {}

  async sweep(batchSize = 100): Promise<{ removed: number; failed: number }> {
    let removed = 0;
    let failed = 0;
    await this.db.transaction(async (m) => {
      const due: Array<{ id: string; storage_key: string; attempts: number; in_use: boolean }> = await m.query(
        `SELECT sd.id, sd.storage_key, sd.attempts,
                EXISTS (SELECT 1 FROM attachments a WHERE a.storage_key = sd.storage_key) AS in_use
           FROM storage_deletions sd
          WHERE sd.next_attempt_at <= now()
          ORDER BY sd.next_attempt_at
          LIMIT $1
          FOR UPDATE SKIP LOCKED`,
        [batchSize],
      );
      for (const row of due) {
        try {
          if (!row.in_use) await this.storage.delete(row.storage_key);
          await m.query('DELETE FROM storage_deletions WHERE id = $1', [row.id]);
          removed++;
        } catch (e) {
          failed++;
          const attempts = row.attempts + 1;
          await m.query(
            `UPDATE storage_deletions SET attempts = $2, last_error = $3, next_attempt_at = now() + make_interval(secs => $4) WHERE id = $1`,
            [row.id, attempts, String((e as Error).message ?? e).slice(0, 500), retryDelaySeconds(attempts)],
          );
        }
      }
    });
    if (removed || failed) this.logger.log(`storage deletions: ${removed} removed, ${failed} failed (will retry)`);
    return { removed, failed };
  }
}
