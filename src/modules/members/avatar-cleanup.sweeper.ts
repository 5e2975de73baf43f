import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ObjectStorage } from '../../common/storage/object-storage';
import type { Tx } from '../../database/sql.service';
import { retryDelaySeconds } from '../attachments/storage-deletion.sweeper';
import { AvatarsRepository, type DueAvatarCleanup } from './avatars.repository';

/**
 * Drains `avatar_cleanups`: removes each claimed object (unless a member shows it again) and its
 * queue row; a failure keeps the row with the error and a later attempt (30 s doubling, at most
 * 1 hour). Rows are claimed with SKIP LOCKED, so the worker's sweeps, other workers and the avatar
 * requests cleaning their own rows never remove one object twice or wait for each other.
 */
@Injectable()
export class AvatarCleanupSweeper {
  private readonly logger = new Logger(AvatarCleanupSweeper.name);

  constructor(
    private readonly db: DataSource,
    private readonly storage: ObjectStorage,
    private readonly avatars: AvatarsRepository,
  ) {}

  /** One batch of due rows of any organization (the worker's job). */
  async sweep(batchSize = 100): Promise<{ removed: number; failed: number }> {
    const r = await this.db.transaction(async (m) => this.process(await this.avatars.claimDue(batchSize, m), m));
    if (r.removed || r.failed) this.logger.log(`avatar cleanups: ${r.removed} removed, ${r.failed} failed (will retry)`);
    return r;
  }

  /**
   * Removes the objects of queue rows `ids` now (an avatar request cleaning up after itself).
   * True when none of them is left queued; false when one failed (retried later) or another sweep
   * holds it at this moment.
   */
  async cleanNow(orgId: string, ids: readonly string[]): Promise<boolean> {
    try {
      await this.db.transaction(async (m) => this.process(await this.avatars.claim(orgId, ids, m), m));
    } catch (e) {
      this.logger.warn(`avatar cleanup deferred to the worker: ${(e as Error).message}`);
    }
    return (await this.avatars.countQueued(orgId, ids)) === 0;
  }

  private async process(rows: readonly DueAvatarCleanup[], m: Tx): Promise<{ removed: number; failed: number }> {
    let removed = 0;
    let failed = 0;
    for (const row of rows) {
      try {
        if (!row.in_use) await this.storage.delete(row.storage_key);
        await this.avatars.dropCleanup(row.org_id, row.id, m);
        removed++;
      } catch (e) {
        failed++;
        const attempts = row.attempts + 1;
        await this.avatars.retryLater(row.org_id, row.id, attempts, String((e as Error).message ?? e).slice(0, 500), retryDelaySeconds(attempts), m);
      }
    }
    return { removed, failed };
  }
}
