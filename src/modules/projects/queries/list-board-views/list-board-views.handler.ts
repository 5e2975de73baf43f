import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { readBoardColumns, readBoardViews } from '../../board.reader';
import { BoardRepository } from '../../board.repository';
import type { BoardViewListResponse } from '../../projects.response';
import { ListBoardViewsQuery } from './list-board-views.query';

@QueryHandler(ListBoardViewsQuery)
export class ListBoardViewsHandler implements IQueryHandler<ListBoardViewsQuery> {
  constructor(
    private readonly board: BoardRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, projectId }: ListBoardViewsQuery): Promise<BoardViewListResponse> {
    await this.access.assertProjectRead(actor, projectId);
    const { columns } = await readBoardColumns(this.board, null, actor.orgId, projectId);
    const views = await readBoardViews(this.board, null, actor.orgId, projectId);
    return { columns, views };
  }
}
