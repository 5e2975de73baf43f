import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { listResponse } from '../../../../common/http/list';
import { teamExists } from '../../team.reader';
import { type TeamMemberRow, toTeamMemberResponse } from '../../teams.mapper';
import { ListTeamMembersQuery } from './list-team-members.query';

/** Active members of one team, by display name. Non-guests only. */
@QueryHandler(ListTeamMembersQuery)
export class ListTeamMembersHandler implements IQueryHandler<ListTeamMembersQuery, Record<string, unknown>> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, teamId, page }: ListTeamMembersQuery): Promise<Record<string, unknown>> {
    await this.access.assertOrgWideMember(actor, 'Guests cannot see teams');
    if (!(await teamExists(this.db, actor.orgId, teamId))) throw Errors.notFound('Team not found');
    const from = `FROM team_members tm
      JOIN members m ON m.org_id = tm.org_id AND m.id = tm.member_id AND m.removed_at IS NULL
     WHERE tm.org_id = $1 AND tm.team_id = $2`;
    const [rows, count]: [TeamMemberRow[], Array<{ n: number }>] = await Promise.all([
      this.db.query(`SELECT m.id, m.display_name, m.type, m.role ${from} ORDER BY lower(m.display_name), m.id LIMIT $3 OFFSET $4`, [
        actor.orgId,
        teamId,
        page.limit,
        page.offset,
      ]),
      this.db.query(`SELECT count(*)::int AS n ${from}`, [actor.orgId, teamId]),
    ]);
    return listResponse('members', rows.map(toTeamMemberResponse), count[0]?.n ?? 0, page);
  }
}
