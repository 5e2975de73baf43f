import { Controller, Get, Headers, HttpCode, Param, Post, Query, Req, Res, StreamableFile } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBody, ApiExtraModels, ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiQuery, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../../common/auth/decorators';
import { RawJsonBody, rawBodyOf } from '../../common/http/raw-body';
import { ApiErrors } from '../../common/openapi/decorators';
import { ReceiveEmailCommand } from './commands/receive-email/receive-email.command';
import { INTAKE_MAX_BYTES } from './inbox.constants';
import { InboxIntakeResponse, InboxIntakeSkipped } from './inbox.response';
import type { DownloadContent } from './queries/get-download/get-download.handler';
import { GetDownloadQuery } from './queries/get-download/get-download.query';

/** What the inbox serves without credentials: the signed email intake and signed attachment URLs. */
@ApiTags('inbox')
@ApiExtraModels(InboxIntakeResponse, InboxIntakeSkipped)
@Controller('api')
export class InboxPublicController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post('webhooks/resend/inbound')
  @Public()
  @RawJsonBody(INTAKE_MAX_BYTES)
  @HttpCode(200)
  @ApiOperation({
    summary: 'Signed inbound email intake (Standard Webhooks signature; `email.received`)',
    description:
      'The raw body (at most 256 KiB, 413 above) is verified with the Standard Webhooks scheme (`webhook-id`, `webhook-timestamp`, `webhook-signature`, or the `svix-*` names) before it is parsed. Stored once per provider message id. 404 when intake is not configured.',
  })
  @ApiBody({ description: 'The provider event as sent (JSON)', schema: { type: 'object', additionalProperties: true } })
  @ApiOkResponse({
    description: 'Stored (or a replay), not addressed to a configured mailbox, or skipped',
    schema: { oneOf: [{ $ref: getSchemaPath(InboxIntakeResponse) }, { $ref: getSchemaPath(InboxIntakeSkipped) }] },
  })
  @ApiErrors({ 401: '`invalid_signature`: missing, stale or wrong signature', 413: '`payload_too_large`: the body is over 256 KiB' })
  receive(@Req() req: FastifyRequest, @Headers() headers: Record<string, string | string[] | undefined>): Promise<InboxIntakeResponse | InboxIntakeSkipped> {
    return this.commands.execute(new ReceiveEmailCommand(rawBodyOf(req), headers));
  }

  @Get('inbox-attachments/:orgId/:emailId/:attachmentId')
  @Public()
  @ApiOperation({
    summary: 'The content of an inbox attachment behind a signed URL (issued by the download route; valid 60 seconds)',
    description:
      'Always a download (`application/octet-stream`, `Content-Disposition: attachment`, `X-Content-Type-Options: nosniff`). An expired or altered URL is 403.',
  })
  @ApiParam({ name: 'orgId', description: 'Organization id', schema: { type: 'string', format: 'uuid' } })
  @ApiParam({ name: 'emailId', description: 'Inbox message id', schema: { type: 'string', format: 'uuid' } })
  @ApiParam({ name: 'attachmentId', description: 'Attachment id', schema: { type: 'string', format: 'uuid' } })
  @ApiQuery({ name: 'expires', required: true, description: 'Expiry (Unix seconds), as issued' })
  @ApiQuery({ name: 'signature', required: true, description: 'Signature, as issued' })
  @ApiProduces('application/octet-stream')
  @ApiOkResponse({ description: 'The bytes', schema: { type: 'string', format: 'binary' } })
  @ApiErrors({ 403: '`url_expired` or `invalid_signature`: the URL expired or was altered' })
  async content(
    @Param('orgId') orgId: string,
    @Param('emailId') emailId: string,
    @Param('attachmentId') attachmentId: string,
    @Query('expires') expires: unknown,
    @Query('signature') signature: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<StreamableFile> {
    const c: DownloadContent = await this.queries.execute(new GetDownloadQuery(orgId, emailId, attachmentId, expires, signature));
    for (const [k, v] of Object.entries(c.headers)) reply.header(k, v);
    return new StreamableFile(c.stream);
  }
}
