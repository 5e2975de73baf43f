import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { TeamsRepository } from '../../../teams/teams.repository';
import { ProjectAccessRepository } from '../../project-access.repository';
import { toProjectTeamResponse } from '../../projects.mapper';
import type { ProjectTeamEnvelope } from '../../projects.response';
import { AddProjectTeamCommand } from './add-project-team.command';
import { TxRunner } from '../../../../database/tx-runner';

/** Assigns a team to the project (its members get `edit` through the access policy). Needs project admin. */
@CommandHandler(AddProjectTeamCommand)
export class AddProjectTeamHandler implements ICommandHandler<AddProjectTeamCommand> {
  constructor(
    private readonly tx: TxRunner,
    private readonly access: AccessPolicyService,
    private readonly projectAccess: ProjectAccessRepository,
    private readonly teams: TeamsRepository,
  ) {}

  async execute({ actor, projectId, dto }: AddProjectTeamCommand): Promise<ProjectTeamEnvelope> {
    await this.access.assertProjectWrite(actor, projectId, 'admin');
    const teamId = dto.teamId?.toLowerCase();
    if (!teamId) throw Errors.validation('teamId is required');
    return this.tx.run(async (m) => {
      if (!(await this.teams.lockForShare(actor.orgId, teamId, m))) throw Errors.notFound('Team not found');
      if (!(await this.projectAccess.addTeam(actor.orgId, projectId, teamId, m)))
        throw Errors.conflict('This team is already assigned to the project', 'project_team_exists');
      const [row] = await this.projectAccess.teams(actor.orgId, projectId, teamId, m);
      return { team: toProjectTeamResponse(row) };
    });
  }
}
