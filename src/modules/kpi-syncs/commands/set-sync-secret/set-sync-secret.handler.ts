import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../../../common/clock/clock';
import { Errors } from '../../../../common/errors/domain-error';
import type { SyncSecretEnvelope } from '../../kpi-syncs.response';
import { KpiSyncScope } from '../../kpi-sync-scope.service';
import { KpiSyncsRepository } from '../../kpi-syncs.repository';
import { SECRET_REF_RE } from '../../sync-config';
import { SetSyncSecretCommand } from './set-sync-secret.command';
import { TxRunner } from '../../../../database/tx-runner';

export const MAX_SECRETS_PER_SYNC = 10;
const MAX_SECRET_LENGTH = 4096;

/**
 * Human owners/admins set (or with `value: null` remove) one secret value. Write-only: the
 * response carries metadata only. Changing a secret invalidates the last dry run for publishing.
 */
@CommandHandler(SetSyncSecretCommand)
export class SetSyncSecretHandler implements ICommandHandler<SetSyncSecretCommand, SyncSecretEnvelope> {
  constructor(
    private readonly tx: TxRunner,
    private readonly scope: KpiSyncScope,
    private readonly syncs: KpiSyncsRepository,
    private readonly clock: Clock,
  ) {}

  async execute({ actor, kpiId, syncId, dto }: SetSyncSecretCommand): Promise<SyncSecretEnvelope> {
    await this.scope.forAdmin(actor, kpiId, syncId);
    const name = dto.name;
    if (typeof name !== 'string' || !SECRET_REF_RE.test(name))
      throw Errors.validation('name must be a secret name: a letter, then letters, digits or _ (at most 64)');
    const value = dto.value;
    if (value === undefined) throw Errors.validation('value is required (a string, or null to remove the secret)');
    if (value !== null) {
      if (typeof value !== 'string' || value.length < 1 || value.length > MAX_SECRET_LENGTH)
        throw Errors.validation(`value must be a string of 1 to ${MAX_SECRET_LENGTH} characters`);
      // header-safe: printable ASCII only (no line breaks, control or non-ASCII characters)
      if (!/^[\x20-\x7e]+$/.test(value)) throw Errors.validation('value must be printable ASCII (no line breaks, control or non-ASCII characters)');
    }
    return this.tx.run(async (m) => {
      const s = await this.scope.sync(actor.orgId, kpiId, syncId, true, m);
      const n = await this.syncs.countOtherSecrets(actor.orgId, syncId, name, m);
      if (value !== null && n >= MAX_SECRETS_PER_SYNC) throw Errors.conflict(`A sync holds at most ${MAX_SECRETS_PER_SYNC} secrets`, 'secret_limit_reached');
      await this.scope.putSecret(actor, syncId, name, value, this.clock.now(), m);
      const secrets = (await this.scope.secretMeta(actor.orgId, [s], m)).get(s.id)!;
      const secret = secrets.find((x) => x.name === name) ?? { name, configured: false, referenced: false, updated_at: null };
      return { secret, secrets };
    });
  }
}
