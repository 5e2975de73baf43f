import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { toMilestoneResponse } from '../../milestones.mapper';
import { MilestonesRepository } from '../../milestones.repository';
import type { MilestoneEnvelope } from '../../milestones.response';
import { GetMilestoneQuery } from './get-milestone.query';

/** 404 when unknown, of another organization, or in a project the caller cannot read. */
@QueryHandler(GetMilestoneQuery)
export class GetMilestoneHandler implements IQueryHandler<GetMilestoneQuery, MilestoneEnvelope> {
  constructor(
    private readonly milestones: MilestonesRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, milestoneId }: GetMilestoneQuery): Promise<MilestoneEnvelope> {
    const projectId = await this.milestones.projectOf(actor.orgId, milestoneId);
    if (!projectId || !(await this.access.levelFor(actor, projectId))) throw Errors.notFound('Milestone not found');
    const row = await this.milestones.find(actor.orgId, milestoneId);
    if (!row) throw Errors.notFound('Milestone not found');
    return { milestone: toMilestoneResponse(row) };
  }
}
