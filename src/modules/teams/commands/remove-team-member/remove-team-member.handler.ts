import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { TeamMemberEntity } from '../../entities/team.entity';
import { teamExists } from '../../team.reader';
import { RemoveTeamMemberCommand } from './remove-team-member.command';

/** Owners and admins remove a member from a team; project access through the team ends on the next request. */
@CommandHandler(RemoveTeamMemberCommand)
export class RemoveTeamMemberHandler implements ICommandHandler<RemoveTeamMemberCommand, void> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, teamId, memberId }: RemoveTeamMemberCommand): Promise<void> {
    this.access.assertOrgAdmin(actor, 'Only organization owners and admins can change team membership');
    if (!(await teamExists(this.db, actor.orgId, teamId))) throw Errors.notFound('Team not found');
    const res = await this.db.getRepository(TeamMemberEntity).delete({ orgId: actor.orgId, teamId, memberId });
    if (!res.affected) throw Errors.notFound('The member is not in this team');
  }
}
