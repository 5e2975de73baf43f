import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { milestoneProject, readMilestone } from '../../milestones.mapper';
import type { MilestoneEnvelope } from '../../milestones.response';
import { GetMilestoneQuery } from './get-milestone.query';

/** 404 when unknown, of another organization, or in a project the caller cannot read. */
@QueryHandler(GetMilestoneQuery)
export class GetMilestoneHandler implements IQueryHandler<GetMilestoneQuery, MilestoneEnvelope> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, milestoneId }: GetMilestoneQuery): Promise<MilestoneEnvelope> {
    const projectId = await milestoneProject(this.db.manager, actor.orgId, milestoneId);
    if (!projectId || !(await this.access.levelFor(actor, projectId))) throw Errors.notFound('Milestone not found');
    return { milestone: await readMilestone(this.db.manager, actor.orgId, milestoneId) };
  }
}
