import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { InitiativeScope } from '../../initiative-scope.service';
import { readMilestoneLinks, toInitiativeMilestoneLink } from '../../initiatives.mapper';
import type { InitiativeMilestoneListResponse } from '../../initiatives.response';
import { ListInitiativeMilestonesQuery } from './list-initiative-milestones.query';

/** Readable initiative; only links whose milestone project is readable. */
@QueryHandler(ListInitiativeMilestonesQuery)
export class ListInitiativeMilestonesHandler implements IQueryHandler<ListInitiativeMilestonesQuery, InitiativeMilestoneListResponse> {
  constructor(
    private readonly db: DataSource,
    private readonly scope: InitiativeScope,
  ) {}

  async execute({ actor, initiativeId }: ListInitiativeMilestonesQuery): Promise<InitiativeMilestoneListResponse> {
    const ini = await this.scope.readable(actor, initiativeId);
    const links = await readMilestoneLinks(this.db.manager, actor.orgId, { table: 'initiative_milestones', ownerColumn: 'initiative_id', ownerId: ini.id }, await this.scope.visibility(actor));
    return { milestones: links.map((l) => toInitiativeMilestoneLink(ini.id, l)) };
  }
}
