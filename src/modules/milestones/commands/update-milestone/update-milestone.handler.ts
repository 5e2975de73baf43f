import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { MilestoneEntity } from '../../entities/milestone.entity';
import { isMilestoneNameViolation, milestoneInput, milestoneNameTaken } from '../../milestone-input';
import { milestoneProject, readMilestone } from '../../milestones.mapper';
import type { MilestoneEnvelope } from '../../milestones.response';
import { UpdateMilestoneCommand } from './update-milestone.command';

/** Needs edit on the milestone's project (404 unreadable or unknown, 403 view-only). */
@CommandHandler(UpdateMilestoneCommand)
export class UpdateMilestoneHandler implements ICommandHandler<UpdateMilestoneCommand, MilestoneEnvelope> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, milestoneId, dto }: UpdateMilestoneCommand): Promise<MilestoneEnvelope> {
    const projectId = await milestoneProject(this.db.manager, actor.orgId, milestoneId);
    if (!projectId || !(await this.access.levelFor(actor, projectId))) throw Errors.notFound('Milestone not found');
    await this.access.assertProjectWrite(actor, projectId, 'edit');
    const input = milestoneInput(dto);
    if (input.name !== undefined) {
      const taken: unknown[] = await this.db.query(
        'SELECT 1 FROM milestones WHERE org_id = $1 AND project_id = $2 AND lower(name) = lower($3) AND id <> $4',
        [actor.orgId, projectId, input.name, milestoneId],
      );
      if (taken.length) throw milestoneNameTaken(input.name);
    }
    const patch: Partial<MilestoneEntity> = {};
    if (input.name !== undefined) patch.name = input.name;
    if (input.description !== undefined) patch.description = input.description;
    if (input.targetDate !== undefined) patch.targetDate = input.targetDate;
    if (input.status !== undefined) patch.status = input.status;
    if (Object.keys(patch).length) {
      try {
        await this.db.getRepository(MilestoneEntity).update({ orgId: actor.orgId, id: milestoneId }, { ...patch, updatedAt: new Date() });
      } catch (e) {
        if (isMilestoneNameViolation(e)) throw milestoneNameTaken(input.name ?? '');
        throw e;
      }
    }
    return { milestone: await readMilestone(this.db.manager, actor.orgId, milestoneId) };
  }
}
