import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { DomainEvents, IssueActivityEvent, snapshotOf } from '../../../../common/events/domain-events';
import { CommentsRepository } from '../../comments.repository';
import type { CommentsSuccessResponse } from '../../comments.response';
import { DeleteCommentCommand } from './delete-comment.command';
import { TxRunner } from '../../../../database/tx-runner';

/**
 * Soft-deletes a comment (hidden from lists and single reads; replies keep a shallow reference).
 * Needs issue write access and authorship; organization owners and admins may also delete other
 * members' comments (moderation).
 */
@CommandHandler(DeleteCommentCommand)
export class DeleteCommentHandler implements ICommandHandler<DeleteCommentCommand> {
  constructor(
    private readonly tx: TxRunner,
    private readonly access: AccessPolicyService,
    private readonly events: DomainEvents,
    private readonly comments: CommentsRepository,
  ) {}

  async execute({ actor, issueId, commentId }: DeleteCommentCommand): Promise<CommentsSuccessResponse> {
    const issue = await this.access.assertIssueWrite(actor, issueId, 'edit');
    await this.tx.run(async (m) => {
      const row = await this.comments.findLive(actor.orgId, issue.id, commentId, m);
      if (!row) throw Errors.notFound('Comment not found');
      const isAuthor = row.author_type === 'member' && row.author_member_id === actor.memberId;
      if (!isAuthor) throw Errors.forbidden('Only the author can delete this comment');
      const now = new Date();
      if (!(await this.comments.softDelete(actor.orgId, issue.id, commentId, now, m))) throw Errors.notFound('Comment not found');
      await this.events.stage(
        m,
        new IssueActivityEvent(actor.orgId, issue.id, issue.projectId, actor.memberId, snapshotOf(actor), 'comment.deleted', { comment_id: commentId }),
      );
    });
    return { success: true };
  }
}
