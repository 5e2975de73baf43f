import { Process, Processor } from '@nestjs/bull';
import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { MAINTENANCE_QUEUE, PURGE_EXPIRED_SESSIONS } from './maintenance.constants';

/** Deletes expired web sessions in bounded batches. */
@Processor(MAINTENANCE_QUEUE)
export class PurgeSessionsProcessor {
  private readonly logger = new Logger(PurgeSessionsProcessor.name);

  constructor(private readonly db: DataSource) {}

  @Process(PURGE_EXPIRED_SESSIONS)
  async purge(): Promise<{ deleted: number }> {
    let deleted = 0;
    for (;;) {
      const r: [unknown[], number] = await this.db.query(
        `DELETE FROM sessions WHERE id IN (SELECT id FROM sessions WHERE expires_at <= now() LIMIT 1000)`,
      );
      const n = Array.isArray(r) ? Number(r[1] ?? 0) : 0;
      deleted += n;
      if (n < 1000) break;
    }
    if (deleted) this.logger.log(`purged ${deleted} expired sessions`);
    return { deleted };
  }
}
