import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { reference } from '../../fields';
import { InitiativeLinks } from '../../initiative-links.service';
import { InitiativeScope } from '../../initiative-scope.service';
import { readMilestoneLinks } from '../../initiatives.mapper';
import type { TargetMilestoneEnvelope } from '../../targets.response';
import { LinkTargetMilestoneCommand } from './link-target-milestone.command';

/**
 * Edit/admin on every target and initiative project plus the milestone project, which must already
 * be linked to the initiative. Milestone by UUID or exact name. 201 new link, 200 already linked.
 */
@CommandHandler(LinkTargetMilestoneCommand)
export class LinkTargetMilestoneHandler implements ICommandHandler<LinkTargetMilestoneCommand, { status: number; body: TargetMilestoneEnvelope }> {
  constructor(
    private readonly db: DataSource,
    private readonly scope: InitiativeScope,
    private readonly links: InitiativeLinks,
  ) {}

  async execute({ actor, initiativeId, targetId, dto }: LinkTargetMilestoneCommand): Promise<{ status: number; body: TargetMilestoneEnvelope }> {
    const ref = reference(dto, 'milestone_id', 'milestoneId');
    const r = await this.links.linkMilestone(actor, initiativeId, targetId, ref);
    const table = { table: 'initiative_target_milestones', ownerColumn: 'target_id', ownerId: targetId } as const;
    const [link] = await readMilestoneLinks(this.db.manager, actor.orgId, table, await this.scope.visibility(actor), r.ms.id);
    return { status: r.created ? 201 : 200, body: { milestone: { target_id: targetId, initiative_id: r.o.ini.id, ...link } } };
  }
}
