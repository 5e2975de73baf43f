import { Command } from '@nestjs/cqrs';
import type { Actor } from '../../../../common/auth/principal';
import type { BoardColumnEnvelope } from '../../projects.response';
import type { UpdateBoardColumnDto } from './update-board-column.dto';

export class UpdateBoardColumnCommand extends Command<BoardColumnEnvelope> {
  constructor(
    readonly actor: Actor,
    readonly projectId: string,
    readonly columnId: string,
    readonly dto: UpdateBoardColumnDto,
  ) {
    super();
  }
}
