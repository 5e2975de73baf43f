import { Module } from '@nestjs/common';
import { MembersModule } from '../members/members.module';
import { NotificationPreferencesModule } from '../notifications/notification-preferences.module';
import { CommentWriter } from './comment-writer.service';
import { CommentsController } from './comments.controller';
import { CommentsRepository } from './comments.repository';
import { CreateCommentHandler } from './commands/create-comment/create-comment.handler';
import { DeleteCommentHandler } from './commands/delete-comment/delete-comment.handler';
import { UpdateCommentHandler } from './commands/update-comment/update-comment.handler';
import { GetCommentHandler } from './queries/get-comment/get-comment.handler';
import { ListCommentsHandler } from './queries/list-comments/list-comments.handler';

/**
 * Issue comments: sanitized HTML bodies, mentions, replies, agent routing metadata. Exports the
 * CommentWriter, also used by the issue update's `comment_body`.
 */
@Module({
  imports: [NotificationPreferencesModule, MembersModule],
  controllers: [CommentsController],
  providers: [CommentsRepository, CommentWriter, CreateCommentHandler, UpdateCommentHandler, DeleteCommentHandler, GetCommentHandler, ListCommentsHandler],
  exports: [CommentWriter, CommentsRepository],
})
export class CommentsModule {}
