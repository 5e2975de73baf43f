import { Process, Processor } from '@nestjs/bull';
import type { Job } from 'bull';
import { type AttemptOutcome, WebhookDeliverer } from './webhook-deliverer.service';
import type { DeliveryRef } from './webhook-outbox.service';
import { DELIVER_JOB, WEBHOOKS_QUEUE } from './webhooks.constants';

/** Bull job: one attempt of one delivery (the row decides; retries are new jobs, never Bull's own). */
@Processor(WEBHOOKS_QUEUE)
export class WebhookDeliveryProcessor {
  constructor(private readonly deliverer: WebhookDeliverer) {}

  @Process({ name: DELIVER_JOB, concurrency: 32 })
  process(job: Job<DeliveryRef>): Promise<AttemptOutcome> {
    return this.deliverer.attempt(job.data);
  }
}
