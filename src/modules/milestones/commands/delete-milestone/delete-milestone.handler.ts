import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { MilestoneEntity } from '../../entities/milestone.entity';
import { DeleteMilestoneCommand } from './delete-milestone.command';

/** Owners and admins only (the role check comes first); issues keep existing with milestone_id cleared (FK ON DELETE SET NULL). */
@CommandHandler(DeleteMilestoneCommand)
export class DeleteMilestoneHandler implements ICommandHandler<DeleteMilestoneCommand, { success: true }> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, milestoneId }: DeleteMilestoneCommand): Promise<{ success: true }> {
    this.access.assertOrgAdmin(actor, 'Only organization owners and admins can delete milestones');
    const res = await this.db.getRepository(MilestoneEntity).delete({ orgId: actor.orgId, id: milestoneId });
    if (!res.affected) throw Errors.notFound('Milestone not found');
    return { success: true };
  }
}
