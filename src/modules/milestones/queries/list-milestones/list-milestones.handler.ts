import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { toMilestoneResponse } from '../../milestones.mapper';
import { MilestonesRepository } from '../../milestones.repository';
import type { MilestoneListResponse } from '../../milestones.response';
import { ListMilestonesQuery } from './list-milestones.query';

@QueryHandler(ListMilestonesQuery)
export class ListMilestonesHandler implements IQueryHandler<ListMilestonesQuery, MilestoneListResponse> {
  constructor(
    private readonly milestones: MilestonesRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, projectId }: ListMilestonesQuery): Promise<MilestoneListResponse> {
    await this.access.assertProjectRead(actor, projectId);
    return { milestones: (await this.milestones.listOfProject(actor.orgId, projectId)).map(toMilestoneResponse) };
  }
}
