import { Query } from '@nestjs/cqrs';
import type { Actor } from '../../../../common/auth/principal';
import type { ProjectMemberListResponse } from '../../projects.response';

export class ListProjectMembersQuery extends Query<ProjectMemberListResponse> {
  constructor(
    readonly actor: Actor,
    readonly projectId: string,
  ) {
    super();
  }
}
