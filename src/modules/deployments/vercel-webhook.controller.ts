import { Controller, Headers, HttpCode, Param, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBody, ApiExtraModels, ApiOkResponse, ApiOperation, ApiParam, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Public } from '../../common/auth/decorators';
import { RawJsonBody, rawBodyOf } from '../../common/http/raw-body';
import { ApiErrors } from '../../common/openapi/decorators';
import { ReceiveVercelEventCommand } from './commands/receive-vercel-event/receive-vercel-event.command';
import { DeploymentCallbackAccepted, DeploymentCallbackSkipped } from './deployments.response';

/** Inbound callbacks are at most 256 KiB (interface.md Limits). */
export const CALLBACK_MAX_BYTES = 256 * 1024;

/** The inbound deployment callback (public: authenticated by its signature and by the provider). */
@ApiTags('deployments')
@ApiExtraModels(DeploymentCallbackAccepted, DeploymentCallbackSkipped)
@Controller('api/webhooks/vercel')
export class VercelWebhookController {
  constructor(private readonly commands: CommandBus) {}

  @Post(':connectionId')
  @Public()
  @RawJsonBody(CALLBACK_MAX_BYTES)
  @HttpCode(200)
  @ApiOperation({
    summary: 'Inbound Vercel deployment callback, signed with HMAC-SHA1 in `x-vercel-signature`',
    description:
      'One enabled connection by its opaque id (unknown: 404). The raw body (at most 256 KiB, 413 above) is verified before it is parsed; the signed team, project and deployment ids are then checked against the provider. `deployment.created|ready|succeeded|error|canceled|promoted` are recorded (`{ accepted, duplicate, complete, code }`); other signed types answer `{ skipped: true }`. Errors are `{ error: "<safe_code>" }`.',
  })
  @ApiParam({ name: 'connectionId', description: 'Deployment connection id (opaque UUID)' })
  @ApiBody({ description: 'The provider event as sent (JSON)', schema: { type: 'object', additionalProperties: true } })
  @ApiOkResponse({
    description: 'Recorded (or a replay), or skipped',
    schema: { oneOf: [{ $ref: getSchemaPath(DeploymentCallbackAccepted) }, { $ref: getSchemaPath(DeploymentCallbackSkipped) }] },
  })
  @ApiErrors({
    401: '`invalid_signature`: missing, malformed or wrong `x-vercel-signature`',
    413: '`payload_too_large`: the body is over 256 KiB',
    422: "`connection_mismatch`: the signed team or project is not the connection's",
  })
  receive(
    @Param('connectionId') connectionId: string,
    @Headers('x-vercel-signature') signature: unknown,
    @Req() req: FastifyRequest,
  ): Promise<DeploymentCallbackAccepted | DeploymentCallbackSkipped> {
    return this.commands.execute(new ReceiveVercelEventCommand(connectionId, rawBodyOf(req), signature));
  }
}
