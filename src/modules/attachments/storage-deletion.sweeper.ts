import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { StorageDeletionsRepository } from './storage-deletions.repository';
import { ObjectStorage } from '../../common/storage/object-storage';

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
    private readonly deletions: StorageDeletionsRepository,
  ) {}

  async sweep(batchSize = 100): Promise<{ removed: number; failed: number }> {
    let removed = 0;
    let failed = 0;
    await this.db.transaction(async (m) => {
      const due = await this.deletions.claimDue(batchSize, m);
      for (const row of due) {
        try {
          if (!row.in_use) await this.storage.delete(row.storage_key);
          await this.deletions.remove(row.org_id, row.id, m);
          removed++;
        } catch (e) {
          failed++;
          const attempts = row.attempts + 1;
          await this.deletions.retryLater(row.org_id, row.id, attempts, String((e as Error).message ?? e).slice(0, 500), retryDelaySeconds(attempts), m);
        }
      }
    });
    if (removed || failed) this.logger.log(`storage deletions: ${removed} removed, ${failed} failed (will retry)`);
    return { removed, failed };
  }
}
