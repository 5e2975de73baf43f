import { Module } from '@nestjs/common';
import { LeaseExpirySweep } from './lease-expiry.sweep';
import { LeasesRepository } from './leases.repository';

/** Worker-side runner housekeeping: the lease expiry sweep. */
@Module({
  providers: [LeasesRepository, LeaseExpirySweep],
  exports: [LeaseExpirySweep],
})
export class RunnersWorkerModule {}
