import { Query } from '@nestjs/cqrs';
import type { Actor } from '../../../../common/auth/principal';

export class ListCommentsQuery extends Query<Record<string, unknown>> {
  constructor(
    readonly actor: Actor,
    readonly issueId: string,
    readonly query: Record<string, unknown>,
  ) {
    super();
  }
}
