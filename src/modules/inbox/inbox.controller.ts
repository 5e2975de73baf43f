import { Body, Controller, Get, Param, Patch, Query, Req } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Inject } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { CurrentActor, OrgScoped } from '../../common/auth/decorators';
import type { Actor } from '../../common/auth/principal';
import { UuidParamPipe } from '../../common/http/validation';
import { ApiErrors, ApiPagedList } from '../../common/openapi/decorators';
import { UpdateEmailCommand } from './commands/update-email/update-email.command';
import { UpdateEmailDto } from './commands/update-email/update-email.dto';
import { INBOX_STATUSES } from './inbox.constants';
import { InboxDownloadResponse, InboxEmailEnvelope, InboxListResponse } from './inbox.response';
import { CreateDownloadUrlQuery } from './queries/create-download-url/create-download-url.query';
import { GetEmailQuery } from './queries/get-email/get-email.query';
import { ListEmailsQuery } from './queries/list-emails/list-emails.query';

/** The private inbox of an organization (inbox operators only: INBOX_OPERATOR_MEMBER_IDS). */
@ApiTags('inbox')
@ApiParam({ name: 'id', description: 'Organization id' })
@OrgScoped()
@Controller('api/orgs/:id/inbox')
export class InboxController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Messages of one status, newest first, without bodies or headers (inbox operators)' })
  @ApiQuery({ name: 'status', required: false, enum: INBOX_STATUSES, description: 'Default `untriaged`' })
  @ApiPagedList()
  @ApiOkResponse({ type: InboxListResponse })
  list(@CurrentActor() actor: Actor, @Query() query: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.queries.execute(new ListEmailsQuery(actor, query));
  }

  @Get(':emailId')
  @ApiOperation({ summary: 'One message: untrusted content (text, sanitized HTML), attachment metadata and audit actions (inbox operators)' })
  @ApiParam({ name: 'emailId', description: 'Inbox message id' })
  @ApiOkResponse({ type: InboxEmailEnvelope })
  get(@CurrentActor() actor: Actor, @Param('emailId', UuidParamPipe) emailId: string): Promise<InboxEmailEnvelope> {
    return this.queries.execute(new GetEmailQuery(actor, emailId));
  }

  @Patch(':emailId')
  @ApiOperation({ summary: 'Triage, classify, prioritize, resolve, note or link a message (inbox operators); every change is an audit action' })
  @ApiParam({ name: 'emailId', description: 'Inbox message id' })
  @ApiOkResponse({ type: InboxEmailEnvelope })
  update(@CurrentActor() actor: Actor, @Param('emailId', UuidParamPipe) emailId: string, @Body() dto: UpdateEmailDto): Promise<InboxEmailEnvelope> {
    return this.commands.execute(new UpdateEmailCommand(actor, emailId, dto));
  }

  @Get(':emailId/attachments/:attachmentId/download')
  @ApiOperation({
    summary: 'A signed private-storage URL of one attachment, valid 60 seconds (inbox operators)',
    description:
      'Errors `{ error, code }`: 401 `unauthorized`, 403 `forbidden` (not an inbox operator), 404 `not_found` (no such message or attachment), 409 `attachment_unavailable` (its content was not kept).',
  })
  @ApiParam({ name: 'emailId', description: 'Inbox message id' })
  @ApiParam({ name: 'attachmentId', description: 'Attachment id' })
  @ApiOkResponse({ type: InboxDownloadResponse })
  @ApiErrors({ 409: "`attachment_unavailable`: the attachment's content was not kept (oversize or not sent)" })
  download(
    @CurrentActor() actor: Actor,
    @Param('emailId', UuidParamPipe) emailId: string,
    @Param('attachmentId', UuidParamPipe) attachmentId: string,
    @Req() req: FastifyRequest,
  ): Promise<InboxDownloadResponse> {
    const origin = this.config.publicUrl ?? `${req.protocol}://${req.host}`;
    return this.queries.execute(new CreateDownloadUrlQuery(actor, emailId, attachmentId, origin));
  }
}
