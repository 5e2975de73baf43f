import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { readBoardColumns } from '../../board.reader';
import type { BoardColumnListResponse } from '../../projects.response';
import { ListBoardColumnsQuery } from './list-board-columns.query';

@QueryHandler(ListBoardColumnsQuery)
export class ListBoardColumnsHandler implements IQueryHandler<ListBoardColumnsQuery> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, projectId }: ListBoardColumnsQuery): Promise<BoardColumnListResponse> {
    await this.access.assertProjectRead(actor, projectId);
    return readBoardColumns(this.db.manager, actor.orgId, projectId);
  }
}
