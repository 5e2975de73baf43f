import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { listResponse } from '../../../../common/http/list';
import { toTeamMemberResponse } from '../../teams.mapper';
import { TeamsRepository } from '../../teams.repository';
import { ListTeamMembersQuery } from './list-team-members.query';

/** Active members of one team, by display name. Non-guests only. */
@QueryHandler(ListTeamMembersQuery)
export class ListTeamMembersHandler implements IQueryHandler<ListTeamMembersQuery, Record<string, unknown>> {
  constructor(
    private readonly teams: TeamsRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, teamId, page }: ListTeamMembersQuery): Promise<Record<string, unknown>> {
    await this.access.assertOrgWideMember(actor, 'Guests cannot see teams');
    if (!(await this.teams.exists(actor.orgId, teamId))) throw Errors.notFound('Team not found');
    const [rows, total] = await Promise.all([this.teams.members(actor.orgId, teamId, page), this.teams.memberCount(actor.orgId, teamId)]);
    return listResponse('members', rows.map(toTeamMemberResponse), total, page);
  }
}
