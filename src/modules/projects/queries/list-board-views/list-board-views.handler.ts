import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { readBoardColumns, readBoardViews } from '../../board.reader';
import type { BoardViewListResponse } from '../../projects.response';
import { ListBoardViewsQuery } from './list-board-views.query';

@QueryHandler(ListBoardViewsQuery)
export class ListBoardViewsHandler implements IQueryHandler<ListBoardViewsQuery> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, projectId }: ListBoardViewsQuery): Promise<BoardViewListResponse> {
    await this.access.assertProjectRead(actor, projectId);
    const { columns } = await readBoardColumns(this.db.manager, actor.orgId, projectId);
    const views = await readBoardViews(this.db.manager, actor.orgId, projectId);
    return { columns, views };
  }
}
