import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { MilestoneEntity } from '../../entities/milestone.entity';
import { isMilestoneNameViolation, milestoneInput, milestoneNameTaken } from '../../milestone-input';
import { readMilestone } from '../../milestones.mapper';
import type { MilestoneEnvelope } from '../../milestones.response';
import { CreateMilestoneCommand } from './create-milestone.command';

/** Needs edit on the project (404 unreadable, 403 view-only). */
@CommandHandler(CreateMilestoneCommand)
export class CreateMilestoneHandler implements ICommandHandler<CreateMilestoneCommand, MilestoneEnvelope> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, projectId, dto }: CreateMilestoneCommand): Promise<MilestoneEnvelope> {
    await this.access.assertProjectWrite(actor, projectId, 'edit');
    const input = milestoneInput(dto);
    if (input.name === undefined) throw Errors.validation('name is required');
    const taken: unknown[] = await this.db.query('SELECT 1 FROM milestones WHERE org_id = $1 AND project_id = $2 AND lower(name) = lower($3)', [
      actor.orgId,
      projectId,
      input.name,
    ]);
    if (taken.length) throw milestoneNameTaken(input.name);
    const now = new Date();
    const id = randomUUID();
    try {
      await this.db.getRepository(MilestoneEntity).insert({
        orgId: actor.orgId,
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
    return { milestone: await readMilestone(this.db.manager, actor.orgId, id) };
  }
}
