import { Module } from '@nestjs/common';
import { EgressModule } from '../../common/egress/egress.module';
import { WebhooksCoreModule } from './webhooks-core.module';

/** API side of outbound webhooks: the `/api/webhooks` routes and the issue-event outbox. */
@Module({
  imports: [WebhooksCoreModule, EgressModule],
  controllers: [],
  providers: [],
  exports: [WebhooksCoreModule],
})
export class WebhooksModule {}
