import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { ProjectAccessRepository } from '../../project-access.repository';
import { toProjectMemberResponse } from '../../projects.mapper';
import type { ProjectMemberListResponse } from '../../projects.response';
import { ListProjectMembersQuery } from './list-project-members.query';

/** The explicit access entries of the project (readers of the project may see them). */
@QueryHandler(ListProjectMembersQuery)
export class ListProjectMembersHandler implements IQueryHandler<ListProjectMembersQuery> {
  constructor(
    private readonly projectAccess: ProjectAccessRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, projectId }: ListProjectMembersQuery): Promise<ProjectMemberListResponse> {
    await this.access.assertProjectRead(actor, projectId);
    const rows = await this.projectAccess.members(actor.orgId, projectId);
    return { members: rows.map(toProjectMemberResponse) };
  }
}
