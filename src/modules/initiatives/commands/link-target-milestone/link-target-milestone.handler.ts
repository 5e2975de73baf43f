import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { reference } from '../../fields';
import { InitiativeLinks } from '../../initiative-links.service';
import { InitiativeScope } from '../../initiative-scope.service';
import { InitiativeTargetsRepository } from '../../initiative-targets.repository';
import { toMilestoneLinks } from '../../initiatives.mapper';
import type { TargetMilestoneEnvelope } from '../../targets.response';
import { LinkTargetMilestoneCommand } from './link-target-milestone.command';

/**
 * Edit/admin on every target and initiative project plus the milestone project, which must already
 * be linked to the initiative. Milestone by UUID or exact name. 201 new link, 200 already linked.
 */
@CommandHandler(LinkTargetMilestoneCommand)
export class LinkTargetMilestoneHandler implements ICommandHandler<LinkTargetMilestoneCommand, { status: number; body: TargetMilestoneEnvelope }> {
  constructor(
    private readonly targets: InitiativeTargetsRepository,
    private readonly scope: InitiativeScope,
    private readonly links: InitiativeLinks,
  ) {}

  async execute({ actor, initiativeId, targetId, dto }: LinkTargetMilestoneCommand): Promise<{ status: number; body: TargetMilestoneEnvelope }> {
    const ref = reference(dto, 'milestone_id');
    const r = await this.links.linkMilestone(actor, initiativeId, targetId, ref);
    const [link] = toMilestoneLinks(await this.targets.links.milestoneLinks(actor.orgId, targetId, r.ms.id), await this.scope.visibility(actor));
    return { status: r.created ? 201 : 200, body: { milestone: { target_id: targetId, initiative_id: r.o.ini.id, ...link } } };
  }
}
