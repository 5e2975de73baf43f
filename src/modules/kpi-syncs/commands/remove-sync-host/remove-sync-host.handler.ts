import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { toPolicyResponse } from '../../kpi-syncs.mapper';
import { KpiSyncsRepository } from '../../kpi-syncs.repository';
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
    private readonly access: AccessPolicyService,
    private readonly syncs: KpiSyncsRepository,
  ) {}

  async execute({ actor, host }: RemoveSyncHostCommand): Promise<SyncPolicyEnvelope> {
    this.access.assertKpiSyncAdmin(actor);
    if (!(await this.syncs.deleteHost(actor.orgId, host.trim().toLowerCase()))) throw Errors.notFound('Host not on the allowlist');
    return { policy: toPolicyResponse(await this.syncs.policy(actor.orgId)) };
  }
}
