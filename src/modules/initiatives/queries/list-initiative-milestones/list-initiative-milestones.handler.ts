import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { InitiativeScope } from '../../initiative-scope.service';
import { toInitiativeMilestoneLink, toMilestoneLinks } from '../../initiatives.mapper';
import { InitiativesRepository } from '../../initiatives.repository';
import type { InitiativeMilestoneListResponse } from '../../initiatives.response';
import { ListInitiativeMilestonesQuery } from './list-initiative-milestones.query';

/** Readable initiative; only links whose milestone project is readable. */
@QueryHandler(ListInitiativeMilestonesQuery)
export class ListInitiativeMilestonesHandler implements IQueryHandler<ListInitiativeMilestonesQuery, InitiativeMilestoneListResponse> {
  constructor(
    private readonly initiatives: InitiativesRepository,
    private readonly scope: InitiativeScope,
  ) {}

  async execute({ actor, initiativeId }: ListInitiativeMilestonesQuery): Promise<InitiativeMilestoneListResponse> {
    const ini = await this.scope.readable(actor, initiativeId);
    const links = toMilestoneLinks(await this.initiatives.links.milestoneLinks(actor.orgId, ini.id), await this.scope.visibility(actor));
    return { milestones: links.map((l) => toInitiativeMilestoneLink(ini.id, l)) };
  }
}
