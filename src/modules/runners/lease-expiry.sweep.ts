import { Injectable, Logger } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
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
    let total = 0;
    for (let i = 0; i < 20; i++) {
      const n = await this.leases.expireDue(1000);
      total += n;
      if (n < 1000) break;
    }
    if (total) this.logger.log(`expired ${total} runner leases`);
    let pruned = 0;
    for (let i = 0; i < 20; i++) {
      const n = await this.leases.pruneMutations(5000);
      pruned += n;
      if (n < 5000) break;
    }
    if (pruned) this.logger.log(`deleted ${pruned} lease write records past their retention`);
    return total;
  }
}
