import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { InitiativeScope } from '../../initiative-scope.service';
import { InitiativeTargetsRepository } from '../../initiative-targets.repository';
import { toMilestoneLinks } from '../../initiatives.mapper';
import type { TargetMilestoneListResponse } from '../../targets.response';
import { ListTargetMilestonesQuery } from './list-target-milestones.query';

/** Read access to the target scope; only links whose milestone project is readable. */
@QueryHandler(ListTargetMilestonesQuery)
export class ListTargetMilestonesHandler implements IQueryHandler<ListTargetMilestonesQuery, TargetMilestoneListResponse> {
  constructor(
    private readonly targets: InitiativeTargetsRepository,
    private readonly scope: InitiativeScope,
  ) {}

  async execute({ actor, initiativeId, targetId }: ListTargetMilestonesQuery): Promise<TargetMilestoneListResponse> {
    const ini = await this.scope.readable(actor, initiativeId);
    const t = await this.scope.target(actor, ini, targetId);
    const links = toMilestoneLinks(await this.targets.links.milestoneLinks(actor.orgId, t.id), await this.scope.visibility(actor));
    return { milestones: links.map((l) => ({ target_id: t.id, initiative_id: ini.id, ...l })) };
  }
}
