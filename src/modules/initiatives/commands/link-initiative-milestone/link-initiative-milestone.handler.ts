import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { reference } from '../../fields';
import { InitiativeLinks } from '../../initiative-links.service';
import { InitiativeScope } from '../../initiative-scope.service';
import { readMilestoneLinks, toInitiativeMilestoneLink } from '../../initiatives.mapper';
import type { InitiativeMilestoneEnvelope } from '../../initiatives.response';
import { LinkInitiativeMilestoneCommand } from './link-initiative-milestone.command';

/** See InitiativeScope.milestoneForLink (UUID or exact name). 201 new link, 200 already linked. */
@CommandHandler(LinkInitiativeMilestoneCommand)
export class LinkInitiativeMilestoneHandler implements ICommandHandler<LinkInitiativeMilestoneCommand, { status: number; body: InitiativeMilestoneEnvelope }> {
  constructor(
    private readonly db: DataSource,
    private readonly scope: InitiativeScope,
    private readonly links: InitiativeLinks,
  ) {}

  async execute({ actor, initiativeId, dto }: LinkInitiativeMilestoneCommand): Promise<{ status: number; body: InitiativeMilestoneEnvelope }> {
    const ref = reference(dto, 'milestone_id', 'milestoneId');
    const r = await this.links.linkMilestone(actor, initiativeId, undefined, ref);
    const table = { table: 'initiative_milestones', ownerColumn: 'initiative_id', ownerId: r.o.ini.id } as const;
    const [link] = await readMilestoneLinks(this.db.manager, actor.orgId, table, await this.scope.visibility(actor), r.ms.id);
    return { status: r.created ? 201 : 200, body: { milestone: toInitiativeMilestoneLink(r.o.ini.id, link) } };
  }
}
