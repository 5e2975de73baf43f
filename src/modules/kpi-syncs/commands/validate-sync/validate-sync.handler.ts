import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '../../../../common/errors/domain-error';
import { toSyncResponse } from '../../kpi-syncs.mapper';
import type { SyncValidateEnvelope } from '../../kpi-syncs.response';
import { KpiSyncScope } from '../../kpi-sync-scope.service';
import { KpiSyncsRepository } from '../../kpi-syncs.repository';
import { validateSyncConfig } from '../../sync-config';
import { ValidateSyncCommand } from './validate-sync.command';
import { TxRunner } from '../../../../database/tx-runner';

/**
 * Human owners/admins: checks the stored configuration against the rules and the current
 * allowlist. Success records the hash as validated (a publish gate); failure clears it and is a
 * 400 naming every problem.
 */
@CommandHandler(ValidateSyncCommand)
export class ValidateSyncHandler implements ICommandHandler<ValidateSyncCommand, SyncValidateEnvelope> {
  constructor(
    private readonly tx: TxRunner,
    private readonly scope: KpiSyncScope,
    private readonly syncs: KpiSyncsRepository,
  ) {}

  async execute({ actor, kpiId, syncId }: ValidateSyncCommand): Promise<SyncValidateEnvelope> {
    await this.scope.forAdmin(actor, kpiId, syncId);
    const failure = await this.tx.run(async (m) => {
      const s = await this.scope.sync(actor.orgId, kpiId, syncId, true, m);
      try {
        validateSyncConfig(
          { request: s.request_config, extraction: s.extraction_config, freshness: s.freshness_config },
          await this.scope.allowlist(actor.orgId, m),
        );
      } catch (e) {
        if (!(e instanceof DomainError)) throw e;
        await this.syncs.clearValidated(actor.orgId, syncId, m);
        return e;
      }
      await this.syncs.markValidated(actor.orgId, syncId, m);
      return null;
    });
    if (failure) throw failure;
    const row = await this.scope.reload(actor.orgId, syncId);
    return { valid: true, sync: toSyncResponse(row, 'full') };
  }
}
