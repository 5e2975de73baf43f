import { Query } from '@nestjs/cqrs';
import type { Actor } from '../../../../common/auth/principal';

export class ListNotificationsQuery extends Query<Record<string, unknown>> {
  constructor(
    readonly actor: Actor,
    readonly query: Record<string, unknown>,
  ) {
    super();
  }
}
