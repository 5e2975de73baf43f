import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { ProjectsRepository } from '../../projects.repository';
import { toProjectResponse } from '../../projects.mapper';
import type { ProjectEnvelope } from '../../projects.response';
import { GetProjectQuery } from './get-project.query';

@QueryHandler(GetProjectQuery)
export class GetProjectHandler implements IQueryHandler<GetProjectQuery> {
  constructor(
    private readonly projects: ProjectsRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, projectId }: GetProjectQuery): Promise<ProjectEnvelope> {
    const level = await this.access.assertProjectRead(actor, projectId);
    const project = await this.projects.findById(actor.orgId, projectId);
    if (!project) throw Errors.notFound('Project not found');
    return { project: toProjectResponse(project, level) };
  }
}
