import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { listResponse } from '../../../../common/http/list';
import { TEAM_COLUMNS } from '../../team.reader';
import { type TeamRow, toTeamResponse } from '../../teams.mapper';
import { ListTeamsQuery } from './list-teams.query';

/** Every team of the organization, by name. Non-guests only (guests do not see the org structure). */
@QueryHandler(ListTeamsQuery)
export class ListTeamsHandler implements IQueryHandler<ListTeamsQuery, Record<string, unknown>> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, page }: ListTeamsQuery): Promise<Record<string, unknown>> {
    await this.access.assertOrgWideMember(actor, 'Guests cannot see teams');
    const [rows, count]: [TeamRow[], Array<{ n: number }>] = await Promise.all([
      this.db.query(`SELECT ${TEAM_COLUMNS} FROM teams t WHERE t.org_id = $1 ORDER BY lower(t.name), t.id LIMIT $2 OFFSET $3`, [actor.orgId, page.limit, page.offset]),
      this.db.query('SELECT count(*)::int AS n FROM teams WHERE org_id = $1', [actor.orgId]),
    ]);
    return listResponse('teams', rows.map(toTeamResponse), count[0]?.n ?? 0, page);
  }
}
