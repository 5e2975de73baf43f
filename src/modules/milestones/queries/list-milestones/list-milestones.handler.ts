import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { readMilestones } from '../../milestones.mapper';
import type { MilestoneListResponse } from '../../milestones.response';
import { ListMilestonesQuery } from './list-milestones.query';

@QueryHandler(ListMilestonesQuery)
export class ListMilestonesHandler implements IQueryHandler<ListMilestonesQuery, MilestoneListResponse> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, projectId }: ListMilestonesQuery): Promise<MilestoneListResponse> {
    await this.access.assertProjectRead(actor, projectId);
    return { milestones: await readMilestones(this.db.manager, actor.orgId, projectId) };
  }
}
