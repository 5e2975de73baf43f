import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { TeamsRepository } from '../../teams.repository';
import { toTeamResponse } from '../../teams.mapper';
import type { TeamResponse } from '../../teams.response';
import { GetTeamQuery } from './get-team.query';

@QueryHandler(GetTeamQuery)
export class GetTeamHandler implements IQueryHandler<GetTeamQuery, TeamResponse> {
  constructor(
    private readonly teams: TeamsRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, teamId }: GetTeamQuery): Promise<TeamResponse> {
    await this.access.assertOrgWideMember(actor, 'Guests cannot see teams');
    const team = await this.teams.find(actor.orgId, teamId);
    if (!team) throw Errors.notFound('Team not found');
    return toTeamResponse(team);
  }
}
