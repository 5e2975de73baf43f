import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CurrentActor, OrgScoped } from '../../common/auth/decorators';
import { Actor } from '../../common/auth/principal';
import { IssueAddressed } from '../../common/http/issue-reference';
import { UuidParamPipe } from '../../common/http/validation';
import { CommentCreatedResponse, CommentEnvelope, CommentListResponse, CommentsSuccessResponse } from './comments.response';
import { CreateCommentCommand } from './commands/create-comment/create-comment.command';
import { CreateCommentDto } from './commands/create-comment/create-comment.dto';
import { DeleteCommentCommand } from './commands/delete-comment/delete-comment.command';
import { UpdateCommentCommand } from './commands/update-comment/update-comment.command';
import { UpdateCommentDto } from './commands/update-comment/update-comment.dto';
import { GetCommentQuery } from './queries/get-comment/get-comment.query';
import { ListCommentsQuery } from './queries/list-comments/list-comments.query';

@ApiTags('comments')
@ApiParam({ name: 'id', description: 'Organization id' })
@IssueAddressed()
@OrgScoped()
@Controller('api/orgs/:id/issues/:issueId/comments')
export class CommentsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @ApiOperation({
    summary:
      'List the live comments of an issue, oldest first, with reply context and mention recipients (issue read access; guests never see projectless issues)',
  })
  @ApiQuery({ name: 'limit', required: false, description: 'Page size, default 100, max 100' })
  @ApiQuery({ name: 'offset', required: false, description: 'Items to skip, default 0' })
  @ApiQuery({
    name: 'shape',
    required: false,
    enum: ['legacy', 'envelope'],
    description: '`envelope` returns { resource, items, total, limit, offset, nextOffset, truncated, hint }',
  })
  @ApiQuery({ name: 'response_shape', required: false, enum: ['legacy', 'cli'], description: 'Alias: `cli` selects the envelope' })
  @ApiOkResponse({ type: CommentListResponse })
  list(@CurrentActor() actor: Actor, @Param('issueId', UuidParamPipe) issueId: string, @Query() query: Record<string, unknown>) {
    return this.queries.execute(new ListCommentsQuery(actor, issueId, query));
  }

  @Post()
  @ApiOperation({
    summary: 'Add a comment (issue write access): Markdown/plain text or HTML, stored as sanitized HTML; optional mentions, reply and agent routing metadata',
  })
  @ApiCreatedResponse({ type: CommentCreatedResponse })
  create(@CurrentActor() actor: Actor, @Param('issueId', UuidParamPipe) issueId: string, @Body() dto: CreateCommentDto): Promise<CommentCreatedResponse> {
    return this.commands.execute(new CreateCommentCommand(actor, issueId, dto));
  }

  @Get(':commentId')
  @ApiOperation({ summary: 'One live comment with its shallow reply_to_comment (deleted comments are 404)' })
  @ApiParam({ name: 'commentId', description: 'Comment id' })
  @ApiOkResponse({ type: CommentEnvelope })
  get(
    @CurrentActor() actor: Actor,
    @Param('issueId', UuidParamPipe) issueId: string,
    @Param('commentId', UuidParamPipe) commentId: string,
  ): Promise<CommentEnvelope> {
    return this.queries.execute(new GetCommentQuery(actor, issueId, commentId));
  }

  @Patch(':commentId')
  @ApiOperation({ summary: 'Edit the body of a comment (its author, with issue write access); sets edited_at' })
  @ApiParam({ name: 'commentId', description: 'Comment id' })
  @ApiOkResponse({ type: CommentEnvelope })
  update(
    @CurrentActor() actor: Actor,
    @Param('issueId', UuidParamPipe) issueId: string,
    @Param('commentId', UuidParamPipe) commentId: string,
    @Body() dto: UpdateCommentDto,
  ): Promise<CommentEnvelope> {
    return this.commands.execute(new UpdateCommentCommand(actor, issueId, commentId, dto));
  }

  @Delete(':commentId')
  @HttpCode(200)
  @ApiOperation({ summary: 'Soft-delete a comment (its author, or an organization owner/admin; issue write access)' })
  @ApiParam({ name: 'commentId', description: 'Comment id' })
  @ApiOkResponse({ type: CommentsSuccessResponse })
  remove(
    @CurrentActor() actor: Actor,
    @Param('issueId', UuidParamPipe) issueId: string,
    @Param('commentId', UuidParamPipe) commentId: string,
  ): Promise<CommentsSuccessResponse> {
    return this.commands.execute(new DeleteCommentCommand(actor, issueId, commentId));
  }
}
