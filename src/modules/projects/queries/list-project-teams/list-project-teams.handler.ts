import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { readProjectTeams } from '../../project-access.reader';
import { toProjectTeamResponse } from '../../projects.mapper';
import type { ProjectTeamListResponse } from '../../projects.response';
import { ListProjectTeamsQuery } from './list-project-teams.query';

@QueryHandler(ListProjectTeamsQuery)
export class ListProjectTeamsHandler implements IQueryHandler<ListProjectTeamsQuery> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, projectId }: ListProjectTeamsQuery): Promise<ProjectTeamListResponse> {
    await this.access.assertProjectRead(actor, projectId);
    const rows = await readProjectTeams(this.db.manager, actor.orgId, projectId);
    return { teams: rows.map(toProjectTeamResponse) };
  }
}
