import { Injectable, Logger } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { batches } from '../../database/batches';
import { LeasesRepository } from './leases.repository';

/**
 * Worker sweep: every minute, active leases past their expiry become `expired` (bounded batches,
 * SKIP LOCKED, so several workers share the work and a lease being written is left to its writer).
 * Claims and lease writes check expiry themselves too, so no issue stays locked by a dead runner.
 * Then the records of accepted lease writes past their retention go (one per renewal: without it
 * the table grew by a row per runner per second, forever).
 */
@Injectable()
export class LeaseExpirySweep {
  private readonly logger = new Logger(LeaseExpirySweep.name);

  constructor(private readonly leases: LeasesRepository) {}

  @Cron(CronExpression.EVERY_MINUTE)
  async sweep(): Promise<number> {
    const total = await batches(1000, 20, (n) => this.leases.expireDue(n));
    if (total) this.logger.log(`expired ${total} runner leases`);
    const pruned = await batches(5000, 20, (n) => this.leases.pruneMutations(n));
    if (pruned) this.logger.log(`deleted ${pruned} lease write records past their retention`);
    return total;
  }
}
