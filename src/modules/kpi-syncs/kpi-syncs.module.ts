import { Module } from '@nestjs/common';
import { AddSyncHostHandler } from './commands/add-sync-host/add-sync-host.handler';
import { CreateSyncHandler } from './commands/create-sync/create-sync.handler';
import { DisableSyncHandler } from './commands/disable-sync/disable-sync.handler';
import { DryRunSyncHandler } from './commands/dry-run-sync/dry-run-sync.handler';
import { PublishSyncHandler } from './commands/publish-sync/publish-sync.handler';
import { RemoveSyncHostHandler } from './commands/remove-sync-host/remove-sync-host.handler';
import { RunSyncNowHandler } from './commands/run-sync-now/run-sync-now.handler';
import { SetSyncSecretHandler } from './commands/set-sync-secret/set-sync-secret.handler';
import { UpdateSyncHandler } from './commands/update-sync/update-sync.handler';
import { ValidateSyncHandler } from './commands/validate-sync/validate-sync.handler';
import { StrategyFormulaModule } from '../strategy/strategy-formula.module';
import { KpiSyncsCoreModule } from './kpi-syncs-core.module';
import { KpiSyncsController } from './kpi-syncs.controller';
import { CheckSyncConfigHandler } from './queries/check-sync-config/check-sync-config.handler';
import { GetSyncPolicyHandler } from './queries/get-sync-policy/get-sync-policy.handler';
import { GetSyncSecretsHandler } from './queries/get-sync-secrets/get-sync-secrets.handler';
import { GetSyncHandler } from './queries/get-sync/get-sync.handler';
import { ListKpiSyncsHandler } from './queries/list-kpi-syncs/list-kpi-syncs.handler';
import { ListOrgSyncsHandler } from './queries/list-org-syncs/list-org-syncs.handler';
import { ListSyncRunsHandler } from './queries/list-sync-runs/list-sync-runs.handler';

/**
 * KPI HTTP syncs: a published sync polls one JSON value over HTTPS on a schedule and records it as
 * an `api_poll` snapshot of its KPI. Rules of the configuration: sync-config.ts.
 *
 * Who may do what (every route first needs the KPI to be readable: 404 otherwise):
 * - human owners/admins: everything (allowlist, drafts, edits, secrets, validate, dry-run,
 *   publish, disable, run-now, run history, the org-wide review with configuration and secret
 *   metadata);
 * - agents that are not guests (any role): read the allowlist and syncs, create drafts, validate
 *   proposed configurations (PUT); nothing else (403);
 * - human members: read the allowlist, redacted sync rows (configuration only of syncs they
 *   drafted, which they cannot do) and the org-wide review as redacted rows;
 * - guests (humans and project-scoped agents): 403.
 * Scheduled runs are the worker's (KpiSyncsWorkerModule).
 */
@Module({
  imports: [KpiSyncsCoreModule, StrategyFormulaModule],
  controllers: [KpiSyncsController],
  providers: [
    AddSyncHostHandler,
    RemoveSyncHostHandler,
    CreateSyncHandler,
    UpdateSyncHandler,
    SetSyncSecretHandler,
    ValidateSyncHandler,
    DryRunSyncHandler,
    PublishSyncHandler,
    DisableSyncHandler,
    RunSyncNowHandler,
    GetSyncPolicyHandler,
    ListOrgSyncsHandler,
    ListKpiSyncsHandler,
    GetSyncHandler,
    CheckSyncConfigHandler,
    GetSyncSecretsHandler,
    ListSyncRunsHandler,
  ],
})
export class KpiSyncsModule {}
