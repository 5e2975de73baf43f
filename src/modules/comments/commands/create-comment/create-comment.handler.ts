import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { DomainEvents, IssueActivityEvent, snapshotOf } from '../../../../common/events/domain-events';
import { toCommentOutcome } from '../../comment.mapper';
import { PreparedCommentBody } from '../../comment-body';
import { CommentWriter } from '../../comment-writer.service';
import type { CommentCreatedResponse } from '../../comments.response';
import { CreateCommentCommand } from './create-comment.command';
import { TxRunner } from '../../../../database/tx-runner';

/** Adds a comment (issue write access) with its `comment.created` timeline entry, in one transaction. */
@CommandHandler(CreateCommentCommand)
export class CreateCommentHandler implements ICommandHandler<CreateCommentCommand> {
  constructor(
    private readonly tx: TxRunner,
    private readonly access: AccessPolicyService,
    private readonly writer: CommentWriter,
    private readonly events: DomainEvents,
  ) {}

  async execute({ actor, issueId, dto }: CreateCommentCommand): Promise<CommentCreatedResponse> {
    const issue = await this.access.assertIssueWrite(actor, issueId, 'edit');
    const input = {
      body: PreparedCommentBody.of(dto.body), // parsed before the transaction opens
      mentions: dto.mentions,
      replyToCommentId: dto.reply_to_comment_id,
      sourceMetadata: dto.source_metadata,
    };
    const res = await this.tx.run(async (m) => {
      const created = await this.writer.create(
        m,
        actor,
        { id: issue.id, projectId: issue.projectId, title: issue.title, assigneeIds: issue.assigneeIds },
        input,
      );
      const c = created.comment as Record<string, unknown>;
      await this.events.stage(
        m,
        new IssueActivityEvent(actor.orgId, issue.id, issue.projectId, actor.memberId, snapshotOf(actor), 'comment.created', {
          comment_id: c.id,
          reply_to_comment_id: c.reply_to_comment_id ?? null,
          mention_count: created.mentions.created,
        }),
      );
      return created;
    });
    const comment = res.comment as Record<string, unknown>;
    return {
      comment: comment as never,
      mentions: res.mentions as never,
      outcome: toCommentOutcome(res),
    };
  }
}
