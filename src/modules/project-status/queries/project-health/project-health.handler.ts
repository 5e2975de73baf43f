import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { toProjectHealthItem } from '../../project-status.mapper';
import { ProjectStatusRepository } from '../../project-status.repository';
import type { ProjectHealthResponse } from '../../project-status.response';
import { ProjectHealthQuery } from './project-health.query';

/** Every project the caller can read with its latest status (null without updates); no readable project: empty. */
@QueryHandler(ProjectHealthQuery)
export class ProjectHealthHandler implements IQueryHandler<ProjectHealthQuery, ProjectHealthResponse> {
  constructor(
    private readonly access: AccessPolicyService,
    private readonly updates: ProjectStatusRepository,
  ) {}

  async execute({ actor }: ProjectHealthQuery): Promise<ProjectHealthResponse> {
    const readable = await this.access.readableProjects(actor);
    if (readable !== 'all' && !readable.length) return { projects: [] };
    return { projects: (await this.updates.health(actor.orgId, readable)).map(toProjectHealthItem) };
  }
}
