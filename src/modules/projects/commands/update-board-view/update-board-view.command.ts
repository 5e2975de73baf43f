import { Command } from '@nestjs/cqrs';
import type { Actor } from '../../../../common/auth/principal';
import type { BoardViewEnvelope } from '../../projects.response';
import type { UpdateBoardViewDto } from './update-board-view.dto';

export class UpdateBoardViewCommand extends Command<BoardViewEnvelope> {
  constructor(
    readonly actor: Actor,
    readonly projectId: string,
    readonly viewId: string,
    readonly dto: UpdateBoardViewDto,
  ) {
    super();
  }
}
