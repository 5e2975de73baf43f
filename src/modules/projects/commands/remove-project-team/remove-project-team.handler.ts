import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { ProjectAccessRepository } from '../../project-access.repository';
import type { ProjectsSuccessResponse } from '../../projects.response';
import { queryUuid } from '../../projects.validation';
import { RemoveProjectTeamCommand } from './remove-project-team.command';

/** Unassigns a team; its members lose the team-derived access on their next request. */
@CommandHandler(RemoveProjectTeamCommand)
export class RemoveProjectTeamHandler implements ICommandHandler<RemoveProjectTeamCommand> {
  constructor(
    private readonly projectAccess: ProjectAccessRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, projectId, query }: RemoveProjectTeamCommand): Promise<ProjectsSuccessResponse> {
    await this.access.assertProjectWrite(actor, projectId, 'admin');
    const teamId = queryUuid(query, ['teamId', 'team_id'], true);
    if (!(await this.projectAccess.removeTeam(actor.orgId, projectId, teamId))) throw Errors.notFound('This team is not assigned to the project');
    return { success: true };
  }
}
