import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { toHostResponse, toPolicyResponse } from '../../kpi-syncs.mapper';
import type { SyncHostEnvelope } from '../../kpi-syncs.response';
import { checkAllowlistHost } from '../../sync-config';
import { AddSyncHostCommand } from './add-sync-host.command';

export const MAX_ALLOWLIST_HOSTS = 100;
export const POLICY_SELECT = 'SELECT host, created_by_member_id, created_at FROM kpi_http_sync_hosts WHERE org_id = $1 ORDER BY host';

/** Human owners and admins add one exact host (409 when it is already there). */
@CommandHandler(AddSyncHostCommand)
export class AddSyncHostHandler implements ICommandHandler<AddSyncHostCommand, SyncHostEnvelope> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, dto }: AddSyncHostCommand): Promise<SyncHostEnvelope> {
    this.access.assertKpiSyncAdmin(actor);
    const checked = checkAllowlistHost(dto.host);
    if ('problem' in checked) throw Errors.validation(checked.problem);
    return this.db.transaction(async (m) => {
      await m.query('SELECT 1 FROM organizations WHERE id = $1 FOR UPDATE', [actor.orgId]);
      const [{ n }] = await m.query('SELECT count(*)::int AS n FROM kpi_http_sync_hosts WHERE org_id = $1', [actor.orgId]);
      const rows = await m.query(
        `INSERT INTO kpi_http_sync_hosts (org_id, id, host, created_by_member_id, created_at) VALUES ($1, $2, $3, $4, now())
         ON CONFLICT (org_id, host) DO NOTHING RETURNING host, created_by_member_id, created_at`,
        [actor.orgId, randomUUID(), checked.host, actor.memberId],
      );
      if (!rows.length) throw Errors.conflict(`${checked.host} is already on the allowlist`, 'host_already_allowlisted');
      if (n >= MAX_ALLOWLIST_HOSTS) throw Errors.conflict(`The allowlist holds at most ${MAX_ALLOWLIST_HOSTS} hosts`, 'allowlist_full');
      return { host: toHostResponse(rows[0]), policy: toPolicyResponse(await m.query(POLICY_SELECT, [actor.orgId])) };
    });
  }
}
