import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { ProjectAccessRepository } from '../../project-access.repository';
import { toProjectTeamResponse } from '../../projects.mapper';
import type { ProjectTeamListResponse } from '../../projects.response';
import { ListProjectTeamsQuery } from './list-project-teams.query';

@QueryHandler(ListProjectTeamsQuery)
export class ListProjectTeamsHandler implements IQueryHandler<ListProjectTeamsQuery> {
  constructor(
    private readonly projectAccess: ProjectAccessRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, projectId }: ListProjectTeamsQuery): Promise<ProjectTeamListResponse> {
    await this.access.assertProjectRead(actor, projectId);
    const rows = await this.projectAccess.teams(actor.orgId, projectId);
    return { teams: rows.map(toProjectTeamResponse) };
  }
}
