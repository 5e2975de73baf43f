import { Command } from '@nestjs/cqrs';
import type { Actor } from '../../../../common/auth/principal';
import type { ProjectMemberEnvelope } from '../../projects.response';
import type { UpdateProjectMemberDto } from './update-project-member.dto';

export class UpdateProjectMemberCommand extends Command<ProjectMemberEnvelope> {
  constructor(
    readonly actor: Actor,
    readonly projectId: string,
    readonly dto: UpdateProjectMemberDto,
  ) {
    super();
  }
}
