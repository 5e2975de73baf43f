import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { ProjectAccessRepository } from '../../project-access.repository';
import type { ProjectsSuccessResponse } from '../../projects.response';
import { queryUuid } from '../../projects.validation';
import { RemoveProjectMemberCommand } from './remove-project-member.command';

/** Deletes an access entry; the member loses it on their next request (access is read live). */
@CommandHandler(RemoveProjectMemberCommand)
export class RemoveProjectMemberHandler implements ICommandHandler<RemoveProjectMemberCommand> {
  constructor(
    private readonly projectAccess: ProjectAccessRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, projectId, query }: RemoveProjectMemberCommand): Promise<ProjectsSuccessResponse> {
    await this.access.assertProjectWrite(actor, projectId, 'admin');
    const memberId = queryUuid(query, ['memberId', 'member_id'], true);
    if (!(await this.projectAccess.removeMember(actor.orgId, projectId, memberId))) throw Errors.notFound('This member has no access entry for the project');
    return { success: true };
  }
}
