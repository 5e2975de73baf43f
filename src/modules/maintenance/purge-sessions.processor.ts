import { Process, Processor } from '@nestjs/bull';
import { Logger } from '@nestjs/common';
import { SessionsRepository } from '../accounts/accounts.repository';
import { MAINTENANCE_QUEUE, PURGE_EXPIRED_SESSIONS } from './maintenance.constants';

/** Deletes expired web sessions in bounded batches. */
@Processor(MAINTENANCE_QUEUE)
export class PurgeSessionsProcessor {
  private readonly logger = new Logger(PurgeSessionsProcessor.name);

  constructor(private readonly sessions: SessionsRepository) {}

  @Process(PURGE_EXPIRED_SESSIONS)
  async purge(): Promise<{ deleted: number }> {
    let deleted = 0;
    for (;;) {
      const n = await this.sessions.purgeExpiredBatch();
      deleted += n;
      if (n < 1000) break;
    }
    if (deleted) this.logger.log(`purged ${deleted} expired sessions`);
    return { deleted };
  }
}
