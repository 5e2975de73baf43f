import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { TeamsRepository } from '../../teams.repository';
import { DeleteTeamCommand } from './delete-team.command';
import { TxRunner } from '../../../../database/tx-runner';

/**
 * Deletes the team. Its team_members and project_teams rows go with it (ON DELETE CASCADE in one
 * statement), so the project access the team granted ends on the next request; its issues stay,
 * without team.
 */
@CommandHandler(DeleteTeamCommand)
export class DeleteTeamHandler implements ICommandHandler<DeleteTeamCommand, void> {
  constructor(
    private readonly tx: TxRunner,
    private readonly teams: TeamsRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, teamId }: DeleteTeamCommand): Promise<void> {
    this.access.assertOrgAdmin(actor, 'Only organization owners and admins can delete teams');
    // the team's issues lose it in the same transaction (TeamsRepository.delete)
    if (!(await this.tx.run((m) => this.teams.delete(actor.orgId, teamId, m)))) throw Errors.notFound('Team not found');
  }
}
