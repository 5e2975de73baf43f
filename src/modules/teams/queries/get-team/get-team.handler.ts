import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { findTeam } from '../../team.reader';
import { toTeamResponse } from '../../teams.mapper';
import type { TeamResponse } from '../../teams.response';
import { GetTeamQuery } from './get-team.query';

@QueryHandler(GetTeamQuery)
export class GetTeamHandler implements IQueryHandler<GetTeamQuery, TeamResponse> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, teamId }: GetTeamQuery): Promise<TeamResponse> {
    await this.access.assertOrgWideMember(actor, 'Guests cannot see teams');
    const team = await findTeam(this.db, actor.orgId, teamId);
    if (!team) throw Errors.notFound('Team not found');
    return toTeamResponse(team);
  }
}
