import { Command } from '@nestjs/cqrs';
import type { Actor } from '../../../../common/auth/principal';
import type { ProjectMemberEnvelope } from '../../projects.response';
import type { AddProjectMemberDto } from './add-project-member.dto';

export class AddProjectMemberCommand extends Command<ProjectMemberEnvelope> {
  constructor(
    readonly actor: Actor,
    readonly projectId: string,
    readonly dto: AddProjectMemberDto,
  ) {
    super();
  }
}
