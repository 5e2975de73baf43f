import { Query } from '@nestjs/cqrs';
import type { Actor } from '../../../../common/auth/principal';

export class ListProjectsQuery extends Query<Record<string, unknown>> {
  constructor(
    readonly actor: Actor,
    /** Raw query string: limit, offset, shape/response_shape, status */
    readonly query: Record<string, unknown>,
  ) {
    super();
  }
}
