import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { TeamsRepository } from '../../teams.repository';
import { DeleteTeamCommand } from './delete-team.command';

/**
 * Deletes the team. Its team_members and project_teams rows go with it (ON DELETE CASCADE in one
 * statement), so the project access the team granted ends on the next request.
 */
@CommandHandler(DeleteTeamCommand)
export class DeleteTeamHandler implements ICommandHandler<DeleteTeamCommand, void> {
  constructor(
    private readonly teams: TeamsRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, teamId }: DeleteTeamCommand): Promise<void> {
    this.access.assertOrgAdmin(actor, 'Only organization owners and admins can delete teams');
    if (!(await this.teams.delete(actor.orgId, teamId))) throw Errors.notFound('Team not found');
  }
}
