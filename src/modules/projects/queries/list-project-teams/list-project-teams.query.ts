import { Query } from '@nestjs/cqrs';
import type { Actor } from '../../../../common/auth/principal';
import type { ProjectTeamListResponse } from '../../projects.response';

export class ListProjectTeamsQuery extends Query<ProjectTeamListResponse> {
  constructor(
    readonly actor: Actor,
    readonly projectId: string,
  ) {
    super();
  }
}
