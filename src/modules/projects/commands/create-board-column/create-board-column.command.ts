import { Command } from '@nestjs/cqrs';
import type { Actor } from '../../../../common/auth/principal';
import type { BoardColumnEnvelope } from '../../projects.response';
import type { CreateBoardColumnDto } from './create-board-column.dto';

export class CreateBoardColumnCommand extends Command<BoardColumnEnvelope> {
  constructor(
    readonly actor: Actor,
    readonly projectId: string,
    readonly dto: CreateBoardColumnDto,
  ) {
    super();
  }
}
