import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { ProjectTeamEntity } from '../../entities/project-member.entity';
import type { ProjectsSuccessResponse } from '../../projects.response';
import { queryUuid } from '../../projects.validation';
import { RemoveProjectTeamCommand } from './remove-project-team.command';

/** Unassigns a team; its members lose the team-derived access on their next request. */
@CommandHandler(RemoveProjectTeamCommand)
export class RemoveProjectTeamHandler implements ICommandHandler<RemoveProjectTeamCommand> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, projectId, query }: RemoveProjectTeamCommand): Promise<ProjectsSuccessResponse> {
    await this.access.assertProjectWrite(actor, projectId, 'admin');
    const teamId = queryUuid(query, ['teamId', 'team_id'], true);
    const result = await this.db.manager.delete(ProjectTeamEntity, { orgId: actor.orgId, projectId, teamId });
    if (!result.affected) throw Errors.notFound('This team is not assigned to the project');
    return { success: true };
  }
}
