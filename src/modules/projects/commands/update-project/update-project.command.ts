import { Command } from '@nestjs/cqrs';
import type { Actor } from '../../../../common/auth/principal';
import type { ProjectEnvelope } from '../../projects.response';
import type { UpdateProjectDto } from './update-project.dto';

export class UpdateProjectCommand extends Command<ProjectEnvelope> {
  constructor(
    readonly actor: Actor,
    readonly projectId: string,
    readonly dto: UpdateProjectDto,
  ) {
    super();
  }
}
