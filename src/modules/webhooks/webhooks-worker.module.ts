import { Module } from '@nestjs/common';
import { EgressModule } from '../../common/egress/egress.module';
import { WebhooksCoreModule } from './webhooks-core.module';

/** Worker side of outbound webhooks: the delivery processor, the drain and the retry sweep. */
@Module({
  imports: [WebhooksCoreModule, EgressModule],
  providers: [],
  exports: [WebhooksCoreModule],
})
export class WebhooksWorkerModule {}
