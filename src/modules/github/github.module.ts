import { Module } from '@nestjs/common';
import { EgressModule } from '../../common/egress/egress.module';
import { CreateConnectionHandler } from './commands/create-connection/create-connection.handler';
import { CreateExternalReferenceHandler } from './commands/create-external-reference/create-external-reference.handler';
import { CreatePrLinkHandler } from './commands/create-pr-link/create-pr-link.handler';
import { DeleteConnectionHandler } from './commands/delete-connection/delete-connection.handler';
import { DeleteExternalReferenceHandler } from './commands/delete-external-reference/delete-external-reference.handler';
import { DeletePrLinkHandler } from './commands/delete-pr-link/delete-pr-link.handler';
import { ReceiveWebhookHandler } from './commands/receive-webhook/receive-webhook.handler';
import { UpdateConnectionHandler } from './commands/update-connection/update-connection.handler';
import { ExternalReferencesRepository } from './external-references.repository';
import { GithubApi } from './github-api';
import { GithubConnectionsRepository } from './github-connections.repository';
import { GithubProvider } from './github-provider.service';
import { GithubConnectionsController, GithubWebhookController, IssueGithubController, ProjectReferencesController } from './github.controller';
import { ObservationsRepository } from './observations.repository';
import { PrLinksRepository } from './pr-links.repository';
import { GetDeliveryContextHandler } from './queries/get-delivery-context/get-delivery-context.handler';
import { GetExternalReferenceHandler } from './queries/get-external-reference/get-external-reference.handler';
import { ListConnectionsHandler } from './queries/list-connections/list-connections.handler';
import { ListExternalReferencesHandler } from './queries/list-external-references/list-external-references.handler';
import { ListPrLinksHandler } from './queries/list-pr-links/list-pr-links.handler';
import { GithubReferenceLinks } from './reference-links.service';
import { ReferenceTargets } from './reference-targets.service';

/** What the API and the worker share: provider access, repositories. */
@Module({
  imports: [EgressModule],
  providers: [
    GithubApi,
    GithubProvider,
    GithubConnectionsRepository,
    PrLinksRepository,
    ExternalReferencesRepository,
    ObservationsRepository,
    ReferenceTargets,
    GithubReferenceLinks,
  ],
  exports: [
    GithubApi,
    GithubProvider,
    GithubConnectionsRepository,
    PrLinksRepository,
    ExternalReferencesRepository,
    ObservationsRepository,
    ReferenceTargets,
    GithubReferenceLinks,
  ],
})
export class GithubCoreModule {}

/**
 * GitHub integration (interface.md "Pull-request links", "External references", "Issue delivery
 * context"; routes.md github-connections and `/api/webhooks/github/{connectionId}`).
 *
 * - Connections: owners/admins; token validated live (422 `github_token_invalid` /
 *   `github_unavailable`); token and webhook secret sealed (SecretBox purpose
 *   `github-connections`, bound to the row), write-only; verification mode `off` by default.
 * - Provider: SERVICE_GITHUB_API_URL through the SSRF-safe egress client (GithubApi): time limits,
 *   retries with back-off on 5xx/429, failures as values (never a 5xx of ours, never logged bodies).
 * - PR links: authorization, then URL, then provider; 201 whatever the provider does; missing ids
 *   reconciled by the worker (GithubIdentitySweep).
 * - External references: only with live numeric ids (else 422 `github_identity_unavailable`).
 * - Webhooks: raw-body HMAC-SHA256 before parsing, idempotent per delivery id, observations and
 *   `verification.completed` notifications to the linked issues' assignees (attention mode only).
 * - Delivery context: delivery-context.ts (pure, table-tested).
 */
@Module({
  imports: [GithubCoreModule],
  controllers: [GithubConnectionsController, IssueGithubController, ProjectReferencesController, GithubWebhookController],
  providers: [
    CreateConnectionHandler,
    UpdateConnectionHandler,
    DeleteConnectionHandler,
    ListConnectionsHandler,
    CreatePrLinkHandler,
    DeletePrLinkHandler,
    ListPrLinksHandler,
    CreateExternalReferenceHandler,
    DeleteExternalReferenceHandler,
    ListExternalReferencesHandler,
    GetExternalReferenceHandler,
    ReceiveWebhookHandler,
    GetDeliveryContextHandler,
  ],
})
export class GithubModule {}
