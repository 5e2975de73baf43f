import { Process, Processor } from '@nestjs/bull';
import type { Job } from 'bull';
import { type AttemptOutcome, WebhookDeliverer } from './webhook-deliverer.service';
import type { DeliveryRef } from './webhook-outbox.service';
import { DELIVER_BATCH_JOB, DELIVER_JOB, WEBHOOKS_QUEUE } from './webhooks.constants';

/**
 * Bull jobs: one attempt of one delivery, or one attempt of each delivery of a batch (the row
 * decides; retries are new jobs, never Bull's own). Up to 32 single jobs and 8 batches (200
 * deliveries) are in flight per worker.
 */
@Processor(WEBHOOKS_QUEUE)
export class WebhookDeliveryProcessor {
  constructor(private readonly deliverer: WebhookDeliverer) {}

  @Process({ name: DELIVER_JOB, concurrency: 32 })
  process(job: Job<DeliveryRef>): Promise<AttemptOutcome> {
    return this.deliverer.attempt(job.data);
  }

  @Process({ name: DELIVER_BATCH_JOB, concurrency: 8 })
  processBatch(job: Job<{ refs: DeliveryRef[] }>): Promise<AttemptOutcome[]> {
    return this.deliverer.attemptMany(job.data.refs);
  }
}
