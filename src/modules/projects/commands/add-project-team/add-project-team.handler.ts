import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { alias } from '../../../../common/http/validation';
import { readProjectTeams } from '../../project-access.reader';
import { toProjectTeamResponse } from '../../projects.mapper';
import type { ProjectTeamEnvelope } from '../../projects.response';
import { AddProjectTeamCommand } from './add-project-team.command';

/** Assigns a team to the project (its members get `edit` through the access policy). Needs project admin. */
@CommandHandler(AddProjectTeamCommand)
export class AddProjectTeamHandler implements ICommandHandler<AddProjectTeamCommand> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, projectId, dto }: AddProjectTeamCommand): Promise<ProjectTeamEnvelope> {
    await this.access.assertProjectWrite(actor, projectId, 'admin');
    const teamId = alias<string>(dto, 'teamId', 'team_id')?.toLowerCase();
    if (!teamId) throw Errors.validation('teamId is required');
    return this.db.transaction(async (m) => {
      const team: unknown[] = await m.query('SELECT 1 FROM teams WHERE org_id = $1 AND id = $2 FOR SHARE', [actor.orgId, teamId]);
      if (!team.length) throw Errors.notFound('Team not found');
      const inserted: unknown[] = await m.query(
        `INSERT INTO project_teams (org_id, project_id, team_id, created_at) VALUES ($1, $2, $3, now())
         ON CONFLICT (org_id, project_id, team_id) DO NOTHING RETURNING team_id`,
        [actor.orgId, projectId, teamId],
      );
      if (!inserted.length) throw Errors.conflict('This team is already assigned to the project', 'project_team_exists');
      const [row] = await readProjectTeams(m, actor.orgId, projectId, teamId);
      return { team: toProjectTeamResponse(row) };
    });
  }
}
