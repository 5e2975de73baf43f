import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { readProjectMembers } from '../../project-access.reader';
import { toProjectMemberResponse } from '../../projects.mapper';
import type { ProjectMemberListResponse } from '../../projects.response';
import { ListProjectMembersQuery } from './list-project-members.query';

/** The explicit access entries of the project (readers of the project may see them). */
@QueryHandler(ListProjectMembersQuery)
export class ListProjectMembersHandler implements IQueryHandler<ListProjectMembersQuery> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, projectId }: ListProjectMembersQuery): Promise<ProjectMemberListResponse> {
    await this.access.assertProjectRead(actor, projectId);
    const rows = await readProjectMembers(this.db.manager, actor.orgId, projectId);
    return { members: rows.map(toProjectMemberResponse) };
  }
}
