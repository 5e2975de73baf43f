import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import type { SyncValidationResponse } from '../../kpi-syncs.response';
import { KpiSyncScope } from '../../kpi-sync-scope.service';
import { checkName, checkSchedule, configHash, configParts, referencedSecrets, validateSyncConfig } from '../../sync-config';
import { CheckSyncConfigQuery } from './check-sync-config.query';

/** PUT: validates a proposed configuration without storing or running it (same callers as drafts). */
@QueryHandler(CheckSyncConfigQuery)
export class CheckSyncConfigHandler implements IQueryHandler<CheckSyncConfigQuery, SyncValidationResponse> {
  constructor(
    private readonly scope: KpiSyncScope,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, kpiId, dto }: CheckSyncConfigQuery): Promise<SyncValidationResponse> {
    await this.scope.readableKpi(actor, kpiId);
    await this.access.assertKpiSyncDrafter(actor);
    checkName(dto.name, false);
    checkSchedule(dto.schedule);
    const config = validateSyncConfig(configParts(dto), await this.scope.allowlist(actor.orgId));
    return {
      valid: true,
      config_hash: configHash(config),
      request_config: config.request_config as unknown as Record<string, unknown>,
      extraction_config: config.extraction_config as unknown as Record<string, unknown>,
      freshness_config: config.freshness_config as unknown as Record<string, unknown>,
      secret_refs: referencedSecrets(config),
    };
  }
}
