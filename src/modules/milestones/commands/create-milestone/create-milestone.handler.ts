import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { isMilestoneNameViolation, milestoneInput, milestoneNameTaken } from '../../milestone-input';
import { toMilestoneResponse } from '../../milestones.mapper';
import { MilestonesRepository } from '../../milestones.repository';
import type { MilestoneEnvelope } from '../../milestones.response';
import { CreateMilestoneCommand } from './create-milestone.command';

/** Needs edit on the project (404 unreadable, 403 view-only). */
@CommandHandler(CreateMilestoneCommand)
export class CreateMilestoneHandler implements ICommandHandler<CreateMilestoneCommand, MilestoneEnvelope> {
  constructor(
    private readonly milestones: MilestonesRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, projectId, dto }: CreateMilestoneCommand): Promise<MilestoneEnvelope> {
    await this.access.assertProjectWrite(actor, projectId, 'edit');
    const input = milestoneInput(dto);
    if (input.name === undefined) throw Errors.validation('name is required');
    if (await this.milestones.nameTaken(actor.orgId, projectId, input.name)) throw milestoneNameTaken(input.name);
    const now = new Date();
    const id = randomUUID();
    try {
      await this.milestones.insert(actor.orgId, {
        id,
        projectId,
        name: input.name,
        description: input.description ?? null,
        targetDate: input.targetDate ?? null,
        status: input.status ?? 'planned',
        createdByMemberId: actor.memberId,
        createdAt: now,
        updatedAt: now,
      });
    } catch (e) {
      if (isMilestoneNameViolation(e)) throw milestoneNameTaken(input.name);
      throw e;
    }
    const row = await this.milestones.find(actor.orgId, id);
    if (!row) throw Errors.notFound('Milestone not found');
    return { milestone: toMilestoneResponse(row) };
  }
}
