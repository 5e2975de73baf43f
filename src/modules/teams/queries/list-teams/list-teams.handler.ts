import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { listResponse } from '../../../../common/http/list';
import { toTeamResponse } from '../../teams.mapper';
import { TeamsRepository } from '../../teams.repository';
import { ListTeamsQuery } from './list-teams.query';

/** Every team of the organization, by name. Non-guests only (guests do not see the org structure). */
@QueryHandler(ListTeamsQuery)
export class ListTeamsHandler implements IQueryHandler<ListTeamsQuery, Record<string, unknown>> {
  constructor(
    private readonly teams: TeamsRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, page }: ListTeamsQuery): Promise<Record<string, unknown>> {
    await this.access.assertOrgWideMember(actor, 'Guests cannot see teams');
    const [rows, total] = await Promise.all([this.teams.list(actor.orgId, page), this.teams.count(actor.orgId)]);
    return listResponse('teams', rows.map(toTeamResponse), total, page);
  }
}
