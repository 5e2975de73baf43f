import { Query } from '@nestjs/cqrs';
import type { Actor } from '../../../../common/auth/principal';
import type { CustomViewListResponse } from '../../projects.response';

export class ListCustomViewsQuery extends Query<CustomViewListResponse> {
  constructor(
    readonly actor: Actor,
    readonly projectId: string,
  ) {
    super();
  }
}
