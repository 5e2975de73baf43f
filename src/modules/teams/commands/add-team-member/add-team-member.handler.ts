import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { MembersRepository } from '../../../members/members.repository';
import { isUniqueViolation } from '../../team-slug';
import { toTeamMemberResponse } from '../../teams.mapper';
import { TeamsRepository } from '../../teams.repository';
import type { TeamMemberResponse } from '../../teams.response';
import { AddTeamMemberCommand } from './add-team-member.command';

const alreadyMember = () => Errors.conflict('The member is already in this team', 'already_team_member');

/**
 * Owners and admins add an active member of the same organization (404 for anything else: other
 * organizations' ids, removed members, unknown ids). The access policy reads team_members live,
 * so the project access a team grants applies from the next request.
 */
@CommandHandler(AddTeamMemberCommand)
export class AddTeamMemberHandler implements ICommandHandler<AddTeamMemberCommand, TeamMemberResponse> {
  constructor(
    private readonly teams: TeamsRepository,
    private readonly access: AccessPolicyService,
    private readonly members: MembersRepository,
  ) {}

  async execute({ actor, teamId, memberId }: AddTeamMemberCommand): Promise<TeamMemberResponse> {
    this.access.assertOrgAdmin(actor, 'Only organization owners and admins can change team membership');
    if (!(await this.teams.exists(actor.orgId, teamId))) throw Errors.notFound('Team not found');
    const member = await this.members.liveSummary(actor.orgId, memberId);
    if (!member) throw Errors.notFound('Member not found');
    if (await this.teams.hasMember(actor.orgId, teamId, memberId)) throw alreadyMember();
    try {
      await this.teams.addMember(actor.orgId, teamId, memberId, new Date());
    } catch (e) {
      if (isUniqueViolation(e, 'team_members_pkey')) throw alreadyMember();
      throw e;
    }
    return toTeamMemberResponse(member);
  }
}
