import { Command } from '@nestjs/cqrs';
import type { Actor } from '../../../../common/auth/principal';
import type { CommentCreatedResponse } from '../../comments.response';
import type { CreateCommentDto } from './create-comment.dto';

export class CreateCommentCommand extends Command<CommentCreatedResponse> {
  constructor(
    readonly actor: Actor,
    readonly issueId: string,
    readonly dto: CreateCommentDto,
  ) {
    super();
  }
}
