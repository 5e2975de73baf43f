import { Command } from '@nestjs/cqrs';
import type { Actor } from '../../../../common/auth/principal';
import type { ProjectsSuccessResponse } from '../../projects.response';

export class RemoveProjectTeamCommand extends Command<ProjectsSuccessResponse> {
  constructor(
    readonly actor: Actor,
    readonly projectId: string,
    /** Raw query string: `teamId` (alias `team_id`) */
    readonly query: Record<string, unknown>,
  ) {
    super();
  }
}
