import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Req } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBody, ApiCreatedResponse, ApiHeader, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { CurrentActor, OrgScoped, Public } from '../../common/auth/decorators';
import type { Actor } from '../../common/auth/principal';
import { UuidParamPipe } from '../../common/http/validation';
import { ApiErrors } from '../../common/openapi/decorators';
import { CreateConnectionCommand } from './commands/create-connection/create-connection.command';
import { CreateExternalReferenceCommand } from './commands/create-external-reference/create-external-reference.command';
import { CreatePrLinkCommand } from './commands/create-pr-link/create-pr-link.command';
import { DeleteConnectionCommand } from './commands/delete-connection/delete-connection.command';
import { DeleteExternalReferenceCommand } from './commands/delete-external-reference/delete-external-reference.command';
import { DeletePrLinkCommand } from './commands/delete-pr-link/delete-pr-link.command';
import { ReceiveWebhookCommand } from './commands/receive-webhook/receive-webhook.command';
import { UpdateConnectionCommand } from './commands/update-connection/update-connection.command';
import { CreateGithubConnectionDto, PrUrlDto, UpdateGithubConnectionDto } from './github.dto';
import {
  DeliveryContextEnvelope,
  ExternalReferenceEnvelope,
  ExternalReferenceListResponse,
  GithubConnectionEnvelope,
  GithubConnectionListResponse,
  GithubSuccessResponse,
  GithubWebhookResponse,
  PrLinkEnvelope,
  PrLinkListResponse,
} from './github.response';
import { GetDeliveryContextQuery } from './queries/get-delivery-context/get-delivery-context.query';
import { GetExternalReferenceQuery } from './queries/get-external-reference/get-external-reference.query';
import { ListConnectionsQuery } from './queries/list-connections/list-connections.query';
import { ListExternalReferencesQuery } from './queries/list-external-references/list-external-references.query';
import { ListPrLinksQuery } from './queries/list-pr-links/list-pr-links.query';
import { RawJsonBody, rawBodyOf } from '../../common/http/raw-body';

/** GitHub webhook payloads are capped by GitHub at 25 MB; ours at 5 MiB (pull request, review, check and workflow events stay far below). */
const GITHUB_WEBHOOK_MAX_BYTES = 5 * 1024 * 1024;

const IDENTITY_422 = { 422: '`github_identity_unavailable`: no connection, or no live provider response with numeric repository and pull-request ids' };

/** Source-hosting connections (owners and admins). */
@ApiTags('github')
@ApiParam({ name: 'id', description: 'Organization id' })
@OrgScoped()
@Controller('api/orgs/:id/github-connections')
export class GithubConnectionsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @ApiOperation({ summary: 'GitHub connections of the organization (owners and admins; secrets are never returned)' })
  @ApiOkResponse({ type: GithubConnectionListResponse })
  list(@CurrentActor() actor: Actor): Promise<GithubConnectionListResponse> {
    return this.queries.execute(new ListConnectionsQuery(actor));
  }

  @Post()
  @ApiOperation({ summary: 'Connect GitHub with a token (validated live against the provider) and a webhook secret; both sealed and write-only' })
  @ApiErrors({ 422: '`github_token_invalid`: GitHub refused the token; `github_unavailable`: GitHub could not be reached to validate it' })
  @ApiCreatedResponse({ type: GithubConnectionEnvelope })
  create(@CurrentActor() actor: Actor, @Body() dto: CreateGithubConnectionDto): Promise<GithubConnectionEnvelope> {
    return this.commands.execute(new CreateConnectionCommand(actor, dto));
  }

  @Patch(':connectionId')
  @ApiOperation({ summary: 'Switch the verification mode (`off` default, `attention` opt-in) or enable/disable the connection' })
  @ApiOkResponse({ type: GithubConnectionEnvelope })
  update(
    @CurrentActor() actor: Actor,
    @Param('connectionId', UuidParamPipe) connectionId: string,
    @Body() dto: UpdateGithubConnectionDto,
  ): Promise<GithubConnectionEnvelope> {
    return this.commands.execute(new UpdateConnectionCommand(actor, connectionId, dto));
  }

  @Delete(':connectionId')
  @HttpCode(200)
  @ApiOperation({ summary: 'Delete a connection and its secrets' })
  @ApiOkResponse({ type: GithubSuccessResponse })
  remove(@CurrentActor() actor: Actor, @Param('connectionId', UuidParamPipe) connectionId: string): Promise<GithubSuccessResponse> {
    return this.commands.execute(new DeleteConnectionCommand(actor, connectionId));
  }
}

/** Pull-request links, external references and delivery context of an issue. */
@ApiTags('github')
@ApiParam({ name: 'id', description: 'Organization id' })
@OrgScoped()
@Controller('api/orgs/:id/issues/:issueId')
export class IssueGithubController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('pr-links')
  @ApiOperation({ summary: "Pull-request links of the issue (read access to the issue's project; projectless: non-guests)" })
  @ApiOkResponse({ type: PrLinkListResponse })
  listPrLinks(@CurrentActor() actor: Actor, @Param('issueId', UuidParamPipe) issueId: string): Promise<PrLinkListResponse> {
    return this.queries.execute(new ListPrLinksQuery(actor, issueId));
  }

  @Post('pr-links')
  @ApiOperation({
    summary:
      'Attach a pull request by its canonical URL (edit/admin, checked before the URL; non-PR URLs 400 `invalid_pr_url`). ' +
      '201 even when the provider has no data (identity fields null, reconciled later); an already linked PR answers its link',
  })
  @ApiBody({ type: PrUrlDto })
  @ApiCreatedResponse({ type: PrLinkEnvelope })
  createPrLink(@CurrentActor() actor: Actor, @Param('issueId', UuidParamPipe) issueId: string, @Body() dto: PrUrlDto): Promise<PrLinkEnvelope> {
    return this.commands.execute(new CreatePrLinkCommand(actor, issueId, dto?.url));
  }

  @Delete('pr-links/:linkId')
  @HttpCode(200)
  @ApiOperation({ summary: 'Remove a pull-request link (edit/admin)' })
  @ApiOkResponse({ type: GithubSuccessResponse })
  deletePrLink(
    @CurrentActor() actor: Actor,
    @Param('issueId', UuidParamPipe) issueId: string,
    @Param('linkId', UuidParamPipe) linkId: string,
  ): Promise<GithubSuccessResponse> {
    return this.commands.execute(new DeletePrLinkCommand(actor, issueId, linkId));
  }

  @Get('delivery-context')
  @ApiOperation({ summary: 'Delivery context of the selected pull-request link (`{ deliveryContext: null }` without one); read-only, nothing inferred' })
  @ApiOkResponse({ type: DeliveryContextEnvelope })
  deliveryContext(@CurrentActor() actor: Actor, @Param('issueId', UuidParamPipe) issueId: string): Promise<DeliveryContextEnvelope> {
    return this.queries.execute(new GetDeliveryContextQuery(actor, issueId));
  }

  @Get('external-references')
  @ApiOperation({ summary: 'Every external reference linked to the issue (no limit/offset)' })
  @ApiOkResponse({ type: ExternalReferenceListResponse })
  listReferences(@CurrentActor() actor: Actor, @Param('issueId', UuidParamPipe) issueId: string): Promise<ExternalReferenceListResponse> {
    return this.queries.execute(new ListExternalReferencesQuery(actor, 'issue', issueId));
  }

  @Post('external-references')
  @ApiOperation({ summary: 'Resolve a GitHub pull request live and link it (edit/admin); stored only with numeric provider ids' })
  @ApiErrors(IDENTITY_422)
  @ApiBody({ type: PrUrlDto })
  @ApiCreatedResponse({ type: ExternalReferenceEnvelope })
  createReference(@CurrentActor() actor: Actor, @Param('issueId', UuidParamPipe) issueId: string, @Body() dto: PrUrlDto): Promise<ExternalReferenceEnvelope> {
    return this.commands.execute(new CreateExternalReferenceCommand(actor, 'issue', issueId, dto?.url));
  }

  @Get('external-references/:referenceId')
  @ApiOperation({ summary: 'One linked external reference' })
  @ApiOkResponse({ type: ExternalReferenceEnvelope })
  getReference(
    @CurrentActor() actor: Actor,
    @Param('issueId', UuidParamPipe) issueId: string,
    @Param('referenceId', UuidParamPipe) referenceId: string,
  ): Promise<ExternalReferenceEnvelope> {
    return this.queries.execute(new GetExternalReferenceQuery(actor, 'issue', issueId, referenceId));
  }

  @Delete('external-references/:referenceId')
  @HttpCode(200)
  @ApiOperation({ summary: 'Unlink an external reference (edit/admin)' })
  @ApiOkResponse({ type: GithubSuccessResponse })
  deleteReference(
    @CurrentActor() actor: Actor,
    @Param('issueId', UuidParamPipe) issueId: string,
    @Param('referenceId', UuidParamPipe) referenceId: string,
  ): Promise<GithubSuccessResponse> {
    return this.commands.execute(new DeleteExternalReferenceCommand(actor, 'issue', issueId, referenceId));
  }
}

/** External references of a project. */
@ApiTags('github')
@ApiParam({ name: 'id', description: 'Organization id' })
@OrgScoped()
@Controller('api/orgs/:id/projects/:projectId/external-references')
export class ProjectReferencesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Every external reference linked to the project (read access; no limit/offset)' })
  @ApiOkResponse({ type: ExternalReferenceListResponse })
  list(@CurrentActor() actor: Actor, @Param('projectId', UuidParamPipe) projectId: string): Promise<ExternalReferenceListResponse> {
    return this.queries.execute(new ListExternalReferencesQuery(actor, 'project', projectId));
  }

  @Post()
  @ApiOperation({ summary: 'Resolve a GitHub pull request live and link it to the project (edit/admin)' })
  @ApiErrors(IDENTITY_422)
  @ApiBody({ type: PrUrlDto })
  @ApiCreatedResponse({ type: ExternalReferenceEnvelope })
  create(@CurrentActor() actor: Actor, @Param('projectId', UuidParamPipe) projectId: string, @Body() dto: PrUrlDto): Promise<ExternalReferenceEnvelope> {
    return this.commands.execute(new CreateExternalReferenceCommand(actor, 'project', projectId, dto?.url));
  }

  @Get(':referenceId')
  @ApiOperation({ summary: 'One linked external reference of the project' })
  @ApiOkResponse({ type: ExternalReferenceEnvelope })
  get(
    @CurrentActor() actor: Actor,
    @Param('projectId', UuidParamPipe) projectId: string,
    @Param('referenceId', UuidParamPipe) referenceId: string,
  ): Promise<ExternalReferenceEnvelope> {
    return this.queries.execute(new GetExternalReferenceQuery(actor, 'project', projectId, referenceId));
  }

  @Delete(':referenceId')
  @HttpCode(200)
  @ApiOperation({ summary: 'Unlink an external reference from the project (edit/admin)' })
  @ApiOkResponse({ type: GithubSuccessResponse })
  remove(
    @CurrentActor() actor: Actor,
    @Param('projectId', UuidParamPipe) projectId: string,
    @Param('referenceId', UuidParamPipe) referenceId: string,
  ): Promise<GithubSuccessResponse> {
    return this.commands.execute(new DeleteExternalReferenceCommand(actor, 'project', projectId, referenceId));
  }
}

/** The signed GitHub webhook receiver (no session or key: the signature authenticates). */
@ApiTags('github')
@Controller('api/webhooks/github')
export class GithubWebhookController {
  constructor(private readonly commands: CommandBus) {}

  @Post(':connectionId')
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary:
      'GitHub webhook of one connection: `X-Hub-Signature-256` verified over the raw body before parsing; JSON or a form with a `payload` field ' +
      '(both GitHub content types); idempotent per `X-GitHub-Delivery`; ' +
      'unknown or disabled connection 404; bad signature 401 `invalid_signature`',
  })
  @ApiParam({ name: 'connectionId', description: 'Connection id (opaque UUID)' })
  @ApiHeader({ name: 'x-hub-signature-256', required: true, description: '`sha256=<hex HMAC-SHA256 of the raw body>`' })
  @ApiHeader({ name: 'x-github-delivery', required: true, description: 'Delivery id (idempotency)' })
  @ApiHeader({ name: 'x-github-event', required: true, description: 'Event name' })
  @ApiErrors(401, 413)
  @RawJsonBody(GITHUB_WEBHOOK_MAX_BYTES, { form: true })
  @ApiOkResponse({ type: GithubWebhookResponse })
  receive(@Param('connectionId') connectionId: string, @Req() req: FastifyRequest): Promise<GithubWebhookResponse> {
    return this.commands.execute(new ReceiveWebhookCommand(connectionId, rawBodyOf(req), req.headers));
  }
}
