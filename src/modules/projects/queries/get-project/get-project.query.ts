import { Query } from '@nestjs/cqrs';
import type { Actor } from '../../../../common/auth/principal';
import type { ProjectEnvelope } from '../../projects.response';

export class GetProjectQuery extends Query<ProjectEnvelope> {
  constructor(
    readonly actor: Actor,
    readonly projectId: string,
  ) {
    super();
  }
}
