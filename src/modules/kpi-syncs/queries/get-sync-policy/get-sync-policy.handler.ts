import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { POLICY_SELECT } from '../../commands/add-sync-host/add-sync-host.handler';
import { toPolicyResponse } from '../../kpi-syncs.mapper';
import type { SyncPolicyEnvelope } from '../../kpi-syncs.response';
import { GetSyncPolicyQuery } from './get-sync-policy.query';

/** Every non-guest (humans and agents: drafters need to know which hosts are allowed). */
@QueryHandler(GetSyncPolicyQuery)
export class GetSyncPolicyHandler implements IQueryHandler<GetSyncPolicyQuery, SyncPolicyEnvelope> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor }: GetSyncPolicyQuery): Promise<SyncPolicyEnvelope> {
    await this.access.assertOrgWideMember(actor, 'Guests cannot read the KPI HTTP sync policy');
    return { policy: toPolicyResponse(await this.db.query(POLICY_SELECT, [actor.orgId])) };
  }
}
