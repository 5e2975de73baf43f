import { Command } from '@nestjs/cqrs';
import type { Actor } from '../../../../common/auth/principal';
import type { CommentsSuccessResponse } from '../../comments.response';

export class DeleteCommentCommand extends Command<CommentsSuccessResponse> {
  constructor(
    readonly actor: Actor,
    readonly issueId: string,
    readonly commentId: string,
  ) {
    super();
  }
}
