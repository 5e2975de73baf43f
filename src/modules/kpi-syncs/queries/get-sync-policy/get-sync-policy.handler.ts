import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { toPolicyResponse } from '../../kpi-syncs.mapper';
import { KpiSyncsRepository } from '../../kpi-syncs.repository';
import type { SyncPolicyEnvelope } from '../../kpi-syncs.response';
import { GetSyncPolicyQuery } from './get-sync-policy.query';

/** Every non-guest (humans and agents: drafters need to know which hosts are allowed). */
@QueryHandler(GetSyncPolicyQuery)
export class GetSyncPolicyHandler implements IQueryHandler<GetSyncPolicyQuery, SyncPolicyEnvelope> {
  constructor(
    private readonly syncs: KpiSyncsRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor }: GetSyncPolicyQuery): Promise<SyncPolicyEnvelope> {
    await this.access.assertOrgWideMember(actor, 'Guests cannot read the KPI HTTP sync policy');
    return { policy: toPolicyResponse(await this.syncs.policy(actor.orgId)) };
  }
}
