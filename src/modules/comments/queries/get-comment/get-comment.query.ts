import { Query } from '@nestjs/cqrs';
import type { Actor } from '../../../../common/auth/principal';
import type { CommentEnvelope } from '../../comments.response';

export class GetCommentQuery extends Query<CommentEnvelope> {
  constructor(
    readonly actor: Actor,
    readonly issueId: string,
    readonly commentId: string,
  ) {
    super();
  }
}
