import { Module } from '@nestjs/common';
import { EgressModule } from '../../common/egress/egress.module';
import { CreateConnectionHandler } from './commands/create-connection/create-connection.handler';
import { DeleteConnectionHandler } from './commands/delete-connection/delete-connection.handler';
import { ReceiveVercelEventHandler } from './commands/receive-vercel-event/receive-vercel-event.handler';
import { ConnectionSecrets } from './connection-secrets';
import { DeploymentsController } from './deployments.controller';
import { DeploymentsRepository } from './deployments.repository';
import { GetConnectionHandler } from './queries/get-connection/get-connection.handler';
import { ListConnectionsHandler } from './queries/list-connections/list-connections.handler';
import { VercelApiClient } from './vercel-api.client';
import { VercelWebhookController } from './vercel-webhook.controller';

/**
 * Deployment-provider connections (Vercel) and the inbound deployment callback.
 * - Connections: owners and admins create (validated live against the provider), list, read and
 *   delete them; the token and signing secret are sealed (ConnectionSecrets) and write-only.
 * - Callback: ReceiveVercelEventHandler (signature before parsing, provider-checked identity, one
 *   atomic observation + deployment reference per event id).
 * Provider reads go through VercelApiClient (SERVICE_VERCEL_API_URL, egress client, retries).
 */
@Module({
  imports: [EgressModule],
  controllers: [DeploymentsController, VercelWebhookController],
  providers: [
    DeploymentsRepository,
    ConnectionSecrets,
    VercelApiClient,
    CreateConnectionHandler,
    DeleteConnectionHandler,
    ListConnectionsHandler,
    GetConnectionHandler,
    ReceiveVercelEventHandler,
  ],
})
export class DeploymentsModule {}
