import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { toHostResponse, toPolicyResponse } from '../../kpi-syncs.mapper';
import { KpiSyncsRepository } from '../../kpi-syncs.repository';
import type { SyncHostEnvelope } from '../../kpi-syncs.response';
import { checkAllowlistHost } from '../../sync-config';
import { AddSyncHostCommand } from './add-sync-host.command';
import { TxRunner } from '../../../../database/tx-runner';

export const MAX_ALLOWLIST_HOSTS = 100;

/** Human owners and admins add one exact host (409 when it is already there). */
@CommandHandler(AddSyncHostCommand)
export class AddSyncHostHandler implements ICommandHandler<AddSyncHostCommand, SyncHostEnvelope> {
  constructor(
    private readonly tx: TxRunner,
    private readonly access: AccessPolicyService,
    private readonly syncs: KpiSyncsRepository,
  ) {}

  async execute({ actor, dto }: AddSyncHostCommand): Promise<SyncHostEnvelope> {
    this.access.assertKpiSyncAdmin(actor);
    const checked = checkAllowlistHost(dto.host);
    if ('problem' in checked) throw Errors.validation(checked.problem);
    return this.tx.run(async (m) => {
      await this.syncs.lockOrganization(actor.orgId, m);
      const n = await this.syncs.countHosts(actor.orgId, m);
      const added = await this.syncs.insertHost(actor.orgId, randomUUID(), checked.host, actor.memberId, m);
      if (!added) throw Errors.conflict(`${checked.host} is already on the allowlist`, 'host_already_allowlisted');
      if (n >= MAX_ALLOWLIST_HOSTS) throw Errors.conflict(`The allowlist holds at most ${MAX_ALLOWLIST_HOSTS} hosts`, 'allowlist_full');
      return { host: toHostResponse(added), policy: toPolicyResponse(await this.syncs.policy(actor.orgId, m)) };
    });
  }
}
