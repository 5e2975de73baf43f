import { Command } from '@nestjs/cqrs';
import type { Actor } from '../../../../common/auth/principal';
import type { ProjectTeamEnvelope } from '../../projects.response';
import type { AddProjectTeamDto } from './add-project-team.dto';

export class AddProjectTeamCommand extends Command<ProjectTeamEnvelope> {
  constructor(
    readonly actor: Actor,
    readonly projectId: string,
    readonly dto: AddProjectTeamDto,
  ) {
    super();
  }
}
