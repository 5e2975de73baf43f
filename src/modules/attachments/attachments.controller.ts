import { Controller, Delete, Get, HttpCode, Param, Post, Req, Res, StreamableFile } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiPayloadTooLargeResponse,
  ApiProduces,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentActor, OrgScoped } from '../../common/auth/decorators';
import type { Actor } from '../../common/auth/principal';
import { IssueAddressed } from '../../common/http/issue-reference';
import { UuidParamPipe } from '../../common/http/validation';
import { AttachmentEnvelope, AttachmentList, SuccessResponse } from './attachments.response';
import { DeleteAttachmentCommand } from './commands/delete-attachment/delete-attachment.command';
import { UploadAttachmentCommand } from './commands/upload-attachment/upload-attachment.command';
import type { AttachmentContent } from './queries/get-attachment-content/get-attachment-content.handler';
import { GetAttachmentContentQuery } from './queries/get-attachment-content/get-attachment-content.query';
import { ListAttachmentsQuery } from './queries/list-attachments/list-attachments.query';
import { readUpload } from './upload-reader';
import { UploadSlots } from './upload-slots';

/** Files attached to issues. See AttachmentsModule. */
@ApiTags('attachments')
@ApiParam({ name: 'id', description: 'Organization id' })
@IssueAddressed()
@OrgScoped()
@Controller('api/orgs/:id/issues/:issueId/attachments')
export class AttachmentsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly slots: UploadSlots,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Attachments of an issue (read access to the issue)' })
  @ApiOkResponse({ type: AttachmentList })
  list(@CurrentActor() actor: Actor, @Param('issueId', UuidParamPipe) issueId: string): Promise<AttachmentList> {
    return this.queries.execute(new ListAttachmentsQuery(actor, issueId));
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Upload a file (multipart field `file`; edit access to the issue)',
    description:
      'Non-empty (400), at most 10 MiB (413). PNG, JPEG, GIF and WebP are checked by their file signature and served inline; ' +
      'other declared image types are rejected (400); other files are always served as downloads.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary', description: 'The file (at most 10 MiB)' } } },
  })
  @ApiCreatedResponse({ type: AttachmentEnvelope })
  @ApiPayloadTooLargeResponse({ description: 'The file is larger than 10 MiB' })
  @ApiResponse({ status: 408, description: 'The body stopped arriving (request_timeout)', schema: { $ref: '#/components/schemas/Error' } })
  @ApiResponse({
    status: 503,
    description: 'Too many uploads in progress in this process (uploads_busy); retry after the Retry-After seconds',
    schema: { $ref: '#/components/schemas/Error' },
  })
  async upload(@CurrentActor() actor: Actor, @Param('issueId', UuidParamPipe) issueId: string, @Req() req: FastifyRequest): Promise<AttachmentEnvelope> {
    // the handler decides access before the body is read (`readUpload`), so an unreadable issue is 404 whatever was sent
    return this.slots.run(async () => ({ attachment: await this.commands.execute(new UploadAttachmentCommand(actor, issueId, () => readUpload(req))) }));
  }

  @Get(':attachmentId/content')
  @ApiOperation({
    summary: 'The content of an attachment (authenticated; read access to the issue)',
    description:
      'Images inline with their type; anything else `application/octet-stream` with `Content-Disposition: attachment`. Always `X-Content-Type-Options: nosniff`.',
  })
  @ApiParam({ name: 'attachmentId', description: 'Attachment id' })
  @ApiProduces('image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/octet-stream')
  @ApiOkResponse({ description: 'The bytes', schema: { type: 'string', format: 'binary' } })
  async content(
    @CurrentActor() actor: Actor,
    @Param('issueId', UuidParamPipe) issueId: string,
    @Param('attachmentId', UuidParamPipe) attachmentId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<StreamableFile> {
    const c: AttachmentContent = await this.queries.execute(new GetAttachmentContentQuery(actor, issueId, attachmentId));
    for (const [k, v] of Object.entries(c.headers)) reply.header(k, v);
    return new StreamableFile(c.stream);
  }

  @Delete(':attachmentId')
  @HttpCode(200)
  @ApiOperation({ summary: 'Delete an attachment (edit access to the issue); the stored object is removed by the worker' })
  @ApiParam({ name: 'attachmentId', description: 'Attachment id' })
  @ApiOkResponse({ type: SuccessResponse })
  async remove(
    @CurrentActor() actor: Actor,
    @Param('issueId', UuidParamPipe) issueId: string,
    @Param('attachmentId', UuidParamPipe) attachmentId: string,
  ): Promise<SuccessResponse> {
    await this.commands.execute(new DeleteAttachmentCommand(actor, issueId, attachmentId));
    return { success: true };
  }
}
