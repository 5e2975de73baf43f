import { Query } from '@nestjs/cqrs';
import type { Actor } from '../../../../common/auth/principal';
import type { BoardViewListResponse } from '../../projects.response';

export class ListBoardViewsQuery extends Query<BoardViewListResponse> {
  constructor(
    readonly actor: Actor,
    readonly projectId: string,
  ) {
    super();
  }
}
