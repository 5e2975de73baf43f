import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentActor, OrgScoped } from '../../common/auth/decorators';
import type { Actor } from '../../common/auth/principal';
import { UuidParamPipe } from '../../common/http/validation';
import { AddSyncHostCommand } from './commands/add-sync-host/add-sync-host.command';
import { AddSyncHostDto } from './commands/add-sync-host/add-sync-host.dto';
import { CreateSyncCommand } from './commands/create-sync/create-sync.command';
import { DisableSyncCommand } from './commands/disable-sync/disable-sync.command';
import { DryRunSyncCommand } from './commands/dry-run-sync/dry-run-sync.command';
import { PublishSyncCommand } from './commands/publish-sync/publish-sync.command';
import { RemoveSyncHostCommand } from './commands/remove-sync-host/remove-sync-host.command';
import { RunSyncNowCommand } from './commands/run-sync-now/run-sync-now.command';
import { RunSyncNowDto } from './commands/run-sync-now/run-sync-now.dto';
import { SetSyncSecretCommand } from './commands/set-sync-secret/set-sync-secret.command';
import { SetSyncSecretDto } from './commands/set-sync-secret/set-sync-secret.dto';
import { UpdateSyncCommand } from './commands/update-sync/update-sync.command';
import { ValidateSyncCommand } from './commands/validate-sync/validate-sync.command';
import {
  SyncEnvelope,
  SyncHostEnvelope,
  SyncListResponse,
  SyncPolicyEnvelope,
  SyncRunEnvelope,
  SyncRunListResponse,
  SyncSecretEnvelope,
  SyncSecretsResponse,
  SyncValidateEnvelope,
  SyncValidationResponse,
} from './kpi-syncs.response';
import { CheckSyncConfigQuery } from './queries/check-sync-config/check-sync-config.query';
import { GetSyncPolicyQuery } from './queries/get-sync-policy/get-sync-policy.query';
import { GetSyncSecretsQuery } from './queries/get-sync-secrets/get-sync-secrets.query';
import { GetSyncQuery } from './queries/get-sync/get-sync.query';
import { ListKpiSyncsQuery } from './queries/list-kpi-syncs/list-kpi-syncs.query';
import { ListOrgSyncsQuery } from './queries/list-org-syncs/list-org-syncs.query';
import { ListSyncRunsQuery } from './queries/list-sync-runs/list-sync-runs.query';
import { SyncConfigDto } from './sync-config.dto';
import { ApiErrors, ApiPagedList } from '../../common/openapi/decorators';

const SYNC = 'kpis/:kpiId/http-syncs/:syncId';

/** KPI HTTP syncs. See KpiSyncsModule for who may do what. */
@ApiTags('kpi-http-syncs')
@ApiParam({ name: 'id', description: 'Organization id' })
@OrgScoped()
@Controller('api/orgs/:id')
export class KpiSyncsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('kpi-http-sync-policy')
  @ApiOperation({ summary: 'The exact-host allowlist (non-guests)' })
  @ApiOkResponse({ type: SyncPolicyEnvelope })
  policy(@CurrentActor() actor: Actor): Promise<SyncPolicyEnvelope> {
    return this.queries.execute(new GetSyncPolicyQuery(actor));
  }

  @Post('kpi-http-sync-policy')
  @ApiOperation({ summary: 'Add an exact host { host } to the allowlist (human owners/admins)' })
  @ApiCreatedResponse({ type: SyncHostEnvelope })
  @ApiErrors({ 409: '`host_already_allowlisted`, `allowlist_full`' })
  addHost(@CurrentActor() actor: Actor, @Body() dto: AddSyncHostDto): Promise<SyncHostEnvelope> {
    return this.commands.execute(new AddSyncHostCommand(actor, dto));
  }

  @Delete('kpi-http-sync-policy/:host')
  @ApiOperation({ summary: 'Remove a host from the allowlist (human owners/admins); runs on it then fail with host_not_allowlisted' })
  @ApiOkResponse({ type: SyncPolicyEnvelope })
  removeHost(@CurrentActor() actor: Actor, @Param('host') host: string): Promise<SyncPolicyEnvelope> {
    return this.commands.execute(new RemoveSyncHostCommand(actor, host));
  }

  @Get('kpi-http-syncs')
  @ApiOperation({
    summary: 'Org-wide review rows: configuration and secret metadata for human owners/admins, redacted rows for members; guests and agents 403',
  })
  @ApiOkResponse({ type: SyncListResponse })
  @ApiPagedList()
  review(@CurrentActor() actor: Actor, @Query() query: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.queries.execute(new ListOrgSyncsQuery(actor, query));
  }

  @Get('kpis/:kpiId/http-syncs')
  @ApiOperation({ summary: "The KPI's HTTP syncs (readable KPI, non-guests)" })
  @ApiOkResponse({ type: SyncListResponse })
  @ApiPagedList()
  list(@CurrentActor() actor: Actor, @Param('kpiId', UuidParamPipe) kpiId: string, @Query() query: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.queries.execute(new ListKpiSyncsQuery(actor, kpiId, query));
  }

  @Post('kpis/:kpiId/http-syncs')
  @ApiOperation({ summary: 'Create a draft (human owners/admins and non-guest agents; the host must be allowlisted)' })
  @ApiCreatedResponse({ type: SyncEnvelope })
  @ApiErrors({ 409: '`kpi_not_syncable` (formula KPI), `sync_limit_reached`' })
  create(@CurrentActor() actor: Actor, @Param('kpiId', UuidParamPipe) kpiId: string, @Body() dto: SyncConfigDto): Promise<SyncEnvelope> {
    return this.commands.execute(new CreateSyncCommand(actor, kpiId, dto));
  }

  @Put('kpis/:kpiId/http-syncs')
  @ApiOperation({ summary: 'Validate a proposed configuration without storing or running it (same callers as drafts)' })
  @ApiOkResponse({ type: SyncValidationResponse })
  check(@CurrentActor() actor: Actor, @Param('kpiId', UuidParamPipe) kpiId: string, @Body() dto: SyncConfigDto): Promise<SyncValidationResponse> {
    return this.queries.execute(new CheckSyncConfigQuery(actor, kpiId, dto));
  }

  @Get(SYNC)
  @ApiOperation({ summary: 'One sync (readable KPI, non-guests; redacted for members who did not draft it)' })
  @ApiOkResponse({ type: SyncEnvelope })
  get(@CurrentActor() actor: Actor, @Param('kpiId', UuidParamPipe) kpiId: string, @Param('syncId', UuidParamPipe) syncId: string): Promise<SyncEnvelope> {
    return this.queries.execute(new GetSyncQuery(actor, kpiId, syncId));
  }

  @Patch(SYNC)
  @ApiOperation({
    summary: 'Update name, schedule or configuration (human owners/admins); a configuration change bumps config_version and returns the sync to draft',
  })
  @ApiOkResponse({ type: SyncEnvelope })
  update(
    @CurrentActor() actor: Actor,
    @Param('kpiId', UuidParamPipe) kpiId: string,
    @Param('syncId', UuidParamPipe) syncId: string,
    @Body() dto: SyncConfigDto,
  ): Promise<SyncEnvelope> {
    return this.commands.execute(new UpdateSyncCommand(actor, kpiId, syncId, dto));
  }

  @Get(`${SYNC}/secrets`)
  @ApiOperation({ summary: 'Secret metadata: names, configured, referenced, updated_at (human owners/admins); never values' })
  @ApiOkResponse({ type: SyncSecretsResponse })
  secrets(
    @CurrentActor() actor: Actor,
    @Param('kpiId', UuidParamPipe) kpiId: string,
    @Param('syncId', UuidParamPipe) syncId: string,
  ): Promise<SyncSecretsResponse> {
    return this.queries.execute(new GetSyncSecretsQuery(actor, kpiId, syncId));
  }

  @Put(`${SYNC}/secrets`)
  @ApiOperation({ summary: 'Set { name, value } (or value null to remove) a write-only secret (human owners/admins)' })
  @ApiOkResponse({ type: SyncSecretEnvelope })
  @ApiErrors({ 409: '`secret_limit_reached`' })
  setSecret(
    @CurrentActor() actor: Actor,
    @Param('kpiId', UuidParamPipe) kpiId: string,
    @Param('syncId', UuidParamPipe) syncId: string,
    @Body() dto: SetSyncSecretDto,
  ): Promise<SyncSecretEnvelope> {
    return this.commands.execute(new SetSyncSecretCommand(actor, kpiId, syncId, dto));
  }

  @Post(`${SYNC}/validate`)
  @HttpCode(200)
  @ApiOperation({ summary: 'Validate the stored configuration against the rules and the current allowlist (human owners/admins)' })
  @ApiOkResponse({ type: SyncValidateEnvelope })
  validate(
    @CurrentActor() actor: Actor,
    @Param('kpiId', UuidParamPipe) kpiId: string,
    @Param('syncId', UuidParamPipe) syncId: string,
  ): Promise<SyncValidateEnvelope> {
    return this.commands.execute(new ValidateSyncCommand(actor, kpiId, syncId));
  }

  @Post(`${SYNC}/dry-run`)
  @HttpCode(200)
  @ApiOperation({ summary: 'One recorded request without a snapshot (human owners/admins)' })
  @ApiOkResponse({ type: SyncRunEnvelope })
  dryRun(@CurrentActor() actor: Actor, @Param('kpiId', UuidParamPipe) kpiId: string, @Param('syncId', UuidParamPipe) syncId: string): Promise<SyncRunEnvelope> {
    return this.commands.execute(new DryRunSyncCommand(actor, kpiId, syncId));
  }

  @Post(`${SYNC}/publish`)
  @HttpCode(200)
  @ApiOperation({ summary: 'Publish a validated, dry-run sync whose secrets are set (human owners/admins)' })
  @ApiOkResponse({ type: SyncEnvelope })
  @ApiErrors({
    409: '`kpi_not_syncable`, `sync_not_validated`, `sync_secrets_missing` (with `missing_secrets`), `sync_dry_run_required`: a publish gate is not met',
  })
  publish(@CurrentActor() actor: Actor, @Param('kpiId', UuidParamPipe) kpiId: string, @Param('syncId', UuidParamPipe) syncId: string): Promise<SyncEnvelope> {
    return this.commands.execute(new PublishSyncCommand(actor, kpiId, syncId));
  }

  @Post(`${SYNC}/disable`)
  @HttpCode(200)
  @ApiOperation({ summary: 'Disable a sync (human owners/admins)' })
  @ApiOkResponse({ type: SyncEnvelope })
  disable(@CurrentActor() actor: Actor, @Param('kpiId', UuidParamPipe) kpiId: string, @Param('syncId', UuidParamPipe) syncId: string): Promise<SyncEnvelope> {
    return this.commands.execute(new DisableSyncCommand(actor, kpiId, syncId));
  }

  @Post(`${SYNC}/run-now`)
  @HttpCode(200)
  @ApiOperation({ summary: 'Preview run; { confirm_snapshot_write: true } on a published sync writes the snapshot (human owners/admins)' })
  @ApiOkResponse({ type: SyncRunEnvelope })
  @ApiErrors({ 409: '`sync_not_published`: only a published sync writes snapshots' })
  runNow(
    @CurrentActor() actor: Actor,
    @Param('kpiId', UuidParamPipe) kpiId: string,
    @Param('syncId', UuidParamPipe) syncId: string,
    @Body() dto: RunSyncNowDto,
  ): Promise<SyncRunEnvelope> {
    return this.commands.execute(new RunSyncNowCommand(actor, kpiId, syncId, dto));
  }

  @Get(`${SYNC}/runs`)
  @ApiOperation({ summary: 'Run history, newest first (human owners/admins)' })
  @ApiOkResponse({ type: SyncRunListResponse })
  @ApiPagedList()
  runs(
    @CurrentActor() actor: Actor,
    @Param('kpiId', UuidParamPipe) kpiId: string,
    @Param('syncId', UuidParamPipe) syncId: string,
    @Query() query: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    return this.queries.execute(new ListSyncRunsQuery(actor, kpiId, syncId, query));
  }
}
