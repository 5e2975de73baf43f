import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { DomainEvents, IssueActivityEvent, snapshotOf } from '../../../../common/events/domain-events';
import { PreparedCommentBody } from '../../comment-body';
import { toCommentResponses } from '../../comment.mapper';
import { CommentsRepository } from '../../comments.repository';
import type { CommentEnvelope } from '../../comments.response';
import { UpdateCommentCommand } from './update-comment.command';
import { TxRunner } from '../../../../database/tx-runner';

/** Edits the body of a comment: issue write access and authorship (403 for anyone else). */
@CommandHandler(UpdateCommentCommand)
export class UpdateCommentHandler implements ICommandHandler<UpdateCommentCommand> {
  constructor(
    private readonly tx: TxRunner,
    private readonly access: AccessPolicyService,
    private readonly events: DomainEvents,
    private readonly comments: CommentsRepository,
  ) {}

  async execute({ actor, issueId, commentId, dto }: UpdateCommentCommand): Promise<CommentEnvelope> {
    const issue = await this.access.assertIssueWrite(actor, issueId, 'edit');
    const prepared = PreparedCommentBody.of(dto.body, 'body'); // parsed before the transaction opens
    const comment = await this.tx.run(async (m) => {
      const row = await this.comments.findLive(actor.orgId, issue.id, commentId, m);
      if (!row) throw Errors.notFound('Comment not found');
      if (row.author_type !== 'member' || row.author_member_id !== actor.memberId) throw Errors.forbidden('Only the author can edit this comment');
      const body = prepared.value();
      const now = new Date();
      if (!(await this.comments.updateBody(actor.orgId, issue.id, commentId, body, now, m))) throw Errors.notFound('Comment not found');
      await this.events.stage(
        m,
        new IssueActivityEvent(actor.orgId, issue.id, issue.projectId, actor.memberId, snapshotOf(actor), 'comment.updated', { comment_id: commentId }),
      );
      const edited = { ...row, body, edited_at: now, updated_at: now };
      const [res] = toCommentResponses([edited], await this.comments.related(actor.orgId, [edited], m));
      return res;
    });
    return { comment: comment as never };
  }
}
