import { Process, Processor } from '@nestjs/bull';
import { Logger } from '@nestjs/common';
import { batches } from '../../database/batches';
import { SessionsRepository } from '../accounts/accounts.repository';
import { MAINTENANCE_QUEUE, PURGE_EXPIRED_SESSIONS } from './maintenance.constants';

/** Expired sessions deleted per statement. */
const BATCH_SIZE = 1000;
/** Batches per run at most (100,000 sessions): the next hourly run takes the rest. */
const MAX_BATCHES = 100;

/** Deletes expired web sessions in bounded batches. */
@Processor(MAINTENANCE_QUEUE)
export class PurgeSessionsProcessor {
  private readonly logger = new Logger(PurgeSessionsProcessor.name);

  constructor(private readonly sessions: SessionsRepository) {}

  @Process(PURGE_EXPIRED_SESSIONS)
  run(): Promise<{ deleted: number }> {
    return this.purge();
  }

  async purge(batchSize = BATCH_SIZE, maxBatches = MAX_BATCHES): Promise<{ deleted: number }> {
    const deleted = await batches(batchSize, maxBatches, (n) => this.sessions.purgeExpiredBatch(n));
    if (deleted) this.logger.log(`purged ${deleted} expired sessions`);
    return { deleted };
  }
}
