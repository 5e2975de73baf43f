import { Command } from '@nestjs/cqrs';
import type { Actor } from '../../../../common/auth/principal';
import type { ProjectEnvelope } from '../../projects.response';
import type { CreateProjectDto } from './create-project.dto';

export class CreateProjectCommand extends Command<ProjectEnvelope> {
  constructor(
    readonly actor: Actor,
    readonly dto: CreateProjectDto,
  ) {
    super();
  }
}
