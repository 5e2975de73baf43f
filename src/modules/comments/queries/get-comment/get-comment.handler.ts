import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { toCommentResponses } from '../../comment.mapper';
import { CommentsRepository } from '../../comments.repository';
import type { CommentEnvelope } from '../../comments.response';
import { GetCommentQuery } from './get-comment.query';

/** One live comment with its shallow `reply_to_comment` (deleted comments are 404). */
@QueryHandler(GetCommentQuery)
export class GetCommentHandler implements IQueryHandler<GetCommentQuery> {
  constructor(
    private readonly comments: CommentsRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, issueId, commentId }: GetCommentQuery): Promise<CommentEnvelope> {
    const issue = await this.access.assertIssueRead(actor, issueId);
    const row = await this.comments.findLive(actor.orgId, issue.id, commentId);
    if (!row) throw Errors.notFound('Comment not found');
    const [comment] = toCommentResponses([row], await this.comments.related(actor.orgId, [row]));
    return { comment: comment as never };
  }
}
