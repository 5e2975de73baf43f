import { Query } from '@nestjs/cqrs';
import type { Actor } from '../../../../common/auth/principal';
import type { BoardColumnListResponse } from '../../projects.response';

export class ListBoardColumnsQuery extends Query<BoardColumnListResponse> {
  constructor(
    readonly actor: Actor,
    readonly projectId: string,
  ) {
    super();
  }
}
