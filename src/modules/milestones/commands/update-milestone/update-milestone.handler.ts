import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { isMilestoneNameViolation, milestoneInput, milestoneNameTaken } from '../../milestone-input';
import { toMilestoneResponse } from '../../milestones.mapper';
import { type MilestoneChanges, MilestonesRepository } from '../../milestones.repository';
import type { MilestoneEnvelope } from '../../milestones.response';
import { UpdateMilestoneCommand } from './update-milestone.command';

/** Needs edit on the milestone's project (404 unreadable or unknown, 403 view-only). */
@CommandHandler(UpdateMilestoneCommand)
export class UpdateMilestoneHandler implements ICommandHandler<UpdateMilestoneCommand, MilestoneEnvelope> {
  constructor(
    private readonly milestones: MilestonesRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, milestoneId, dto }: UpdateMilestoneCommand): Promise<MilestoneEnvelope> {
    const projectId = await this.milestones.projectOf(actor.orgId, milestoneId);
    if (!projectId || !(await this.access.levelFor(actor, projectId))) throw Errors.notFound('Milestone not found');
    await this.access.assertProjectWrite(actor, projectId, 'edit');
    const input = milestoneInput(dto);
    if (input.name !== undefined) {
      if (await this.milestones.nameTaken(actor.orgId, projectId, input.name, milestoneId)) throw milestoneNameTaken(input.name);
    }
    const patch: MilestoneChanges = {};
    if (input.name !== undefined) patch.name = input.name;
    if (input.description !== undefined) patch.description = input.description;
    if (input.targetDate !== undefined) patch.targetDate = input.targetDate;
    if (input.status !== undefined) patch.status = input.status;
    if (Object.keys(patch).length) {
      try {
        await this.milestones.update(actor.orgId, milestoneId, patch, new Date());
      } catch (e) {
        if (isMilestoneNameViolation(e)) throw milestoneNameTaken(input.name ?? '');
        throw e;
      }
    }
    const row = await this.milestones.find(actor.orgId, milestoneId);
    if (!row) throw Errors.notFound('Milestone not found');
    return { milestone: toMilestoneResponse(row) };
  }
}
