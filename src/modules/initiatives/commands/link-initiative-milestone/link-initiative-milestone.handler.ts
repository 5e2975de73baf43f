import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { reference } from '../../fields';
import { InitiativeLinks } from '../../initiative-links.service';
import { InitiativeScope } from '../../initiative-scope.service';
import { toInitiativeMilestoneLink, toMilestoneLinks } from '../../initiatives.mapper';
import { InitiativesRepository } from '../../initiatives.repository';
import type { InitiativeMilestoneEnvelope } from '../../initiatives.response';
import { LinkInitiativeMilestoneCommand } from './link-initiative-milestone.command';

/** See InitiativeScope.milestoneForLink (UUID or exact name). 201 new link, 200 already linked. */
@CommandHandler(LinkInitiativeMilestoneCommand)
export class LinkInitiativeMilestoneHandler implements ICommandHandler<LinkInitiativeMilestoneCommand, { status: number; body: InitiativeMilestoneEnvelope }> {
  constructor(
    private readonly initiatives: InitiativesRepository,
    private readonly scope: InitiativeScope,
    private readonly links: InitiativeLinks,
  ) {}

  async execute({ actor, initiativeId, dto }: LinkInitiativeMilestoneCommand): Promise<{ status: number; body: InitiativeMilestoneEnvelope }> {
    const ref = reference(dto, 'milestone_id');
    const r = await this.links.linkMilestone(actor, initiativeId, undefined, ref);
    const [link] = toMilestoneLinks(await this.initiatives.links.milestoneLinks(actor.orgId, r.o.ini.id, r.ms.id), await this.scope.visibility(actor));
    return { status: r.created ? 201 : 200, body: { milestone: toInitiativeMilestoneLink(r.o.ini.id, link) } };
  }
}
