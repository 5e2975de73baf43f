import { Command } from '@nestjs/cqrs';
import type { Actor } from '../../../../common/auth/principal';
import type { DeleteBoardColumnResponse } from '../../projects.response';

export class DeleteBoardColumnCommand extends Command<DeleteBoardColumnResponse> {
  constructor(
    readonly actor: Actor,
    readonly projectId: string,
    readonly columnId: string,
    /** Raw query string: `reassignTo` (alias `reassign_to`) */
    readonly query: Record<string, unknown>,
  ) {
    super();
  }
}
