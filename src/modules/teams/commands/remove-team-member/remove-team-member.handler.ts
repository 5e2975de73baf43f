import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { TeamsRepository } from '../../teams.repository';
import { RemoveTeamMemberCommand } from './remove-team-member.command';

/** Owners and admins remove a member from a team; project access through the team ends on the next request. */
@CommandHandler(RemoveTeamMemberCommand)
export class RemoveTeamMemberHandler implements ICommandHandler<RemoveTeamMemberCommand, void> {
  constructor(
    private readonly teams: TeamsRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, teamId, memberId }: RemoveTeamMemberCommand): Promise<void> {
    this.access.assertOrgAdmin(actor, 'Only organization owners and admins can change team membership');
    if (!(await this.teams.exists(actor.orgId, teamId))) throw Errors.notFound('Team not found');
    if (!(await this.teams.removeMember(actor.orgId, teamId, memberId))) throw Errors.notFound('The member is not in this team');
  }
}
