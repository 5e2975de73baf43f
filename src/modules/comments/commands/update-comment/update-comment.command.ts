import { Command } from '@nestjs/cqrs';
import type { Actor } from '../../../../common/auth/principal';
import type { CommentEnvelope } from '../../comments.response';
import type { UpdateCommentDto } from './update-comment.dto';

export class UpdateCommentCommand extends Command<CommentEnvelope> {
  constructor(
    readonly actor: Actor,
    readonly issueId: string,
    readonly commentId: string,
    readonly dto: UpdateCommentDto,
  ) {
    super();
  }
}
