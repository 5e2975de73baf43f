import { Command } from '@nestjs/cqrs';
import type { Actor } from '../../../../common/auth/principal';
import type { ProjectsSuccessResponse } from '../../projects.response';

export class DeleteProjectCommand extends Command<ProjectsSuccessResponse> {
  constructor(
    readonly actor: Actor,
    readonly projectId: string,
    readonly confirmation: string | undefined,
  ) {
    super();
  }
}
