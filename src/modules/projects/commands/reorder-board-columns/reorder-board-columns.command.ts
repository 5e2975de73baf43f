import { Command } from '@nestjs/cqrs';
import type { Actor } from '../../../../common/auth/principal';
import type { BoardColumnListResponse } from '../../projects.response';
import type { ReorderBoardColumnsDto } from './reorder-board-columns.dto';

export class ReorderBoardColumnsCommand extends Command<BoardColumnListResponse> {
  constructor(
    readonly actor: Actor,
    readonly projectId: string,
    readonly dto: ReorderBoardColumnsDto,
  ) {
    super();
  }
}
