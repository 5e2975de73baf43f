import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { DomainEvents, IssueActivityEvent, snapshotOf } from '../../../../common/events/domain-events';
import { cleanCommentBody } from '../../comment-body';
import { findLiveComment, toCommentResponses } from '../../comment.mapper';
import type { CommentEnvelope } from '../../comments.response';
import { UpdateCommentCommand } from './update-comment.command';

/** Edits the body of a comment: issue write access and authorship (403 for anyone else). */
@CommandHandler(UpdateCommentCommand)
export class UpdateCommentHandler implements ICommandHandler<UpdateCommentCommand> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
    private readonly events: DomainEvents,
  ) {}

  async execute({ actor, issueId, commentId, dto }: UpdateCommentCommand): Promise<CommentEnvelope> {
    const issue = await this.access.assertIssueWrite(actor, issueId, 'edit');
    const comment = await this.db.transaction(async (m) => {
      const row = await findLiveComment(m, actor.orgId, issue.id, commentId);
      if (!row) throw Errors.notFound('Comment not found');
      if (row.author_type !== 'member' || row.author_member_id !== actor.memberId) throw Errors.forbidden('Only the author can edit this comment');
      const body = cleanCommentBody(dto.body, 'body');
      const now = new Date();
      const updated = await m.query(
        `UPDATE comments SET body = $4, edited_at = $5, updated_at = $5 WHERE org_id = $1 AND issue_id = $2 AND id = $3 AND deleted_at IS NULL`,
        [actor.orgId, issue.id, commentId, body, now],
      );
      if (!updated[1]) throw Errors.notFound('Comment not found');
      await this.events.stage(m,
        new IssueActivityEvent(actor.orgId, issue.id, issue.projectId, actor.memberId, snapshotOf(actor), 'comment.updated', { comment_id: commentId }),
      );
      const [res] = await toCommentResponses(m, actor.orgId, [{ ...row, body, edited_at: now, updated_at: now }]);
      return res;
    });
    return { comment: comment as never };
  }
}
