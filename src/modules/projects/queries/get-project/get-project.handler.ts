import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { ProjectEntity } from '../../entities/project.entity';
import { toProjectResponse } from '../../projects.mapper';
import type { ProjectEnvelope } from '../../projects.response';
import { GetProjectQuery } from './get-project.query';

@QueryHandler(GetProjectQuery)
export class GetProjectHandler implements IQueryHandler<GetProjectQuery> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, projectId }: GetProjectQuery): Promise<ProjectEnvelope> {
    const level = await this.access.assertProjectRead(actor, projectId);
    const project = await this.db.manager.findOne(ProjectEntity, { where: { orgId: actor.orgId, id: projectId } });
    if (!project) throw Errors.notFound('Project not found');
    return { project: toProjectResponse(project, level) };
  }
}
