import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { POLICY_SELECT } from '../add-sync-host/add-sync-host.handler';
import { toPolicyResponse } from '../../kpi-syncs.mapper';
import type { SyncPolicyEnvelope } from '../../kpi-syncs.response';
import { RemoveSyncHostCommand } from './remove-sync-host.command';

/**
 * Human owners and admins remove one host (404 when it is not on the list). Syncs on it stay as
 * they are; their runs fail with `host_not_allowlisted` and validation/publish refuse them until
 * the host is added again, so removal is also the emergency stop for a provider.
 */
@CommandHandler(RemoveSyncHostCommand)
export class RemoveSyncHostHandler implements ICommandHandler<RemoveSyncHostCommand, SyncPolicyEnvelope> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, host }: RemoveSyncHostCommand): Promise<SyncPolicyEnvelope> {
    this.access.assertKpiSyncAdmin(actor);
    const res: unknown[] = await this.db.query('DELETE FROM kpi_http_sync_hosts WHERE org_id = $1 AND host = $2 RETURNING host', [actor.orgId, host.trim().toLowerCase()]);
    if (!Array.isArray(res[0]) || !res[0].length) throw Errors.notFound('Host not on the allowlist');
    return { policy: toPolicyResponse(await this.db.query(POLICY_SELECT, [actor.orgId])) };
  }
}
