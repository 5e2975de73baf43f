import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { TeamMemberEntity } from '../../entities/team.entity';
import { isUniqueViolation, teamExists } from '../../team.reader';
import { type TeamMemberRow, toTeamMemberResponse } from '../../teams.mapper';
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
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, teamId, memberId }: AddTeamMemberCommand): Promise<TeamMemberResponse> {
    this.access.assertOrgAdmin(actor, 'Only organization owners and admins can change team membership');
    if (!(await teamExists(this.db, actor.orgId, teamId))) throw Errors.notFound('Team not found');
    const rows: TeamMemberRow[] = await this.db.query(
      'SELECT id, display_name, type, role FROM members WHERE org_id = $1 AND id = $2 AND removed_at IS NULL',
      [actor.orgId, memberId],
    );
    const member = rows[0];
    if (!member) throw Errors.notFound('Member not found');
    const dup: unknown[] = await this.db.query('SELECT 1 FROM team_members WHERE org_id = $1 AND team_id = $2 AND member_id = $3', [actor.orgId, teamId, memberId]);
    if (dup.length) throw alreadyMember();
    try {
      await this.db.getRepository(TeamMemberEntity).insert({ orgId: actor.orgId, teamId, memberId, createdAt: new Date() });
    } catch (e) {
      if (isUniqueViolation(e, 'team_members_pkey')) throw alreadyMember();
      throw e;
    }
    return toTeamMemberResponse(member);
  }
}
