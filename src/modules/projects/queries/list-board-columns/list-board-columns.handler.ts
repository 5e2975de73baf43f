import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { readBoardColumns } from '../../board.reader';
import { BoardRepository } from '../../board.repository';
import type { BoardColumnListResponse } from '../../projects.response';
import { ListBoardColumnsQuery } from './list-board-columns.query';

@QueryHandler(ListBoardColumnsQuery)
export class ListBoardColumnsHandler implements IQueryHandler<ListBoardColumnsQuery> {
  constructor(
    private readonly board: BoardRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, projectId }: ListBoardColumnsQuery): Promise<BoardColumnListResponse> {
    await this.access.assertProjectRead(actor, projectId);
    return readBoardColumns(this.board, null, actor.orgId, projectId);
  }
}
