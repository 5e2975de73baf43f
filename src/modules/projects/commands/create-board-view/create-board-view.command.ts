import { Command } from '@nestjs/cqrs';
import type { Actor } from '../../../../common/auth/principal';
import type { BoardViewEnvelope } from '../../projects.response';
import type { CreateBoardViewDto } from './create-board-view.dto';

export class CreateBoardViewCommand extends Command<BoardViewEnvelope> {
  constructor(
    readonly actor: Actor,
    readonly projectId: string,
    readonly dto: CreateBoardViewDto,
  ) {
    super();
  }
}
