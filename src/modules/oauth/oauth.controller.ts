import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiSecurity,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AuthService } from '../../common/auth/auth.service';
import { CurrentPrincipal, HumanOnly, Public } from '../../common/auth/decorators';
import type { HumanPrincipal, Principal } from '../../common/auth/principal';
import { SESSION_COOKIE } from '../../common/auth/tokens';
import { AcceptsBody } from '../../common/http/json-body';
import { UuidParamPipe } from '../../common/http/validation';
import { ApiErrors } from '../../common/openapi/decorators';
import { DecideConsentCommand } from './commands/decide-consent/decide-consent.command';
import { DecideConsentDto } from './commands/decide-consent/decide-consent.dto';
import { ExchangeTokenCommand } from './commands/exchange-token/exchange-token.command';
import { RegisterClientCommand } from './commands/register-client/register-client.command';
import { RevokeConnectionCommand } from './commands/revoke-connection/revoke-connection.command';
import { RevokeTokenCommand } from './commands/revoke-token/revoke-token.command';
import { type AuthorizationOutcome, StartAuthorizationCommand } from './commands/start-authorization/start-authorization.command';
import { consentPage } from './consent-page';
import { OAuthUrls } from './oauth-urls';
import {
  OAuthAgentProfilesResponse,
  OAuthAuthorizationRequestResponse,
  OAuthClientRegistrationResponse,
  OAuthConnectionListResponse,
  OAuthRedirectResponse,
  OAuthRevocationResponse,
  OAuthSuccessResponse,
  OAuthTokenResponse,
} from './oauth.response';
import { GetAgentProfilesQuery } from './queries/get-agent-profiles/get-agent-profiles.query';
import { ListConnectionsQuery } from './queries/list-connections/list-connections.query';

/** JSON unless the client prefers HTML (a browser): `application/json` listed before `text/html`, or without it. */
function wantsJson(accept: string | undefined): boolean {
  if (!accept) return true;
  const j = accept.indexOf('application/json');
  const h = accept.indexOf('text/html');
  return j >= 0 && (h < 0 || j < h);
}
const bearerOf = (req: FastifyRequest): string | null => /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1] ?? null;
const bool = (v: unknown): unknown => (v === 'true' ? true : v === 'false' ? false : v);

/** The request body media types of the OAuth form endpoints (RFC 6749 §4.1.3, RFC 7009 §2.1; the consent page's form); parsed by form-body.ts. */
const FORM_OR_JSON = ['application/x-www-form-urlencoded', 'application/json'];
/** A 302 with `Location`; the JSON body repeats it. */
const redirect = (description: string) =>
  ApiFoundResponse({
    description,
    type: OAuthRedirectResponse,
    headers: { Location: { description: 'Where the browser goes next', schema: { type: 'string' } } },
  });
const RATE_LIMITED = '`RATE_LIMITED`: too many requests from this address';

const TOKEN_REQUEST = {
  type: 'object',
  required: ['grant_type', 'client_id'],
  properties: {
    grant_type: { type: 'string', enum: ['authorization_code', 'refresh_token'] },
    client_id: { type: 'string' },
    code: { type: 'string', description: 'authorization_code: the code from the redirect' },
    redirect_uri: { type: 'string', description: 'authorization_code: the redirect URI of the authorization request' },
    code_verifier: { type: 'string', description: 'authorization_code: the PKCE verifier' },
    refresh_token: { type: 'string', description: 'refresh_token: the current refresh token' },
    resource: { type: 'string', description: 'The MCP resource (RFC 8707)' },
  },
};
const REVOKE_REQUEST = {
  type: 'object',
  required: ['token'],
  properties: {
    token: { type: 'string' },
    token_type_hint: { type: 'string', enum: ['access_token', 'refresh_token'] },
    client_id: { type: 'string' },
  },
};

/** OAuth 2.1 authorization server of the MCP resource: registration, authorization and consent, tokens, connections, agent profiles. */
@ApiTags('oauth')
@Controller('api/oauth')
export class OAuthController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly urls: OAuthUrls,
    private readonly auth: AuthService,
  ) {}

  @Post('register')
  @Public()
  @ApiOperation({ summary: 'RFC 7591 dynamic client registration (public clients only, exact redirect URIs; rate-limited per address)' })
  @ApiCreatedResponse({ description: 'The client metadata with `client_id`; no secret', type: OAuthClientRegistrationResponse })
  @ApiErrors({ 429: RATE_LIMITED })
  register(@Req() req: FastifyRequest, @Body() body: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.commands.execute(new RegisterClientCommand(body, req.ip));
  }

  @Get('authorize')
  @Public()
  @ApiOperation({
    summary:
      'Authorization endpoint (code + PKCE S256 + resource). A signed-in human gets { authorization_id, client, resource, agents[] } as JSON, or a consent page',
    description:
      'No session: 302 to sign-in. Unknown client or unregistered redirect_uri: 400 here; other errors redirect to the client with `error` and `state`.',
  })
  @ApiExtraModels(OAuthAuthorizationRequestResponse)
  @ApiOkResponse({
    description: 'The authorization request to decide on: JSON (`Accept: application/json` or no `Accept`), or the consent page (HTML) for a browser',
    content: {
      'application/json': { schema: { $ref: getSchemaPath(OAuthAuthorizationRequestResponse) } },
      'text/html': { schema: { type: 'string' } },
    },
  })
  @redirect('To sign-in without a session (it returns to this URL), or back to the client with `error` and `state`')
  async authorize(@Req() req: FastifyRequest, @Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply): Promise<unknown> {
    const sid = (req as FastifyRequest & { cookies?: Record<string, string | undefined> }).cookies?.[SESSION_COOKIE];
    const human = sid && !req.headers.authorization ? await this.auth.fromSessionToken(sid) : null;
    const out: AuthorizationOutcome = await this.commands.execute(
      new StartAuthorizationCommand(query, human?.userId ?? null, this.urls.resource(req), this.urls.issuer(req), req.url),
    );
    reply.header('cache-control', 'no-store');
    if (out.kind === 'redirect') {
      reply.status(302).header('location', out.location);
      return { redirect_to: out.location };
    }
    if (wantsJson(req.headers.accept)) return out;
    reply.type('text/html; charset=utf-8').header('content-security-policy', "default-src 'none'; form-action 'self'");
    return consentPage(out);
  }

  @Post('consent')
  @HumanOnly()
  @HttpCode(302)
  @ApiOperation({
    summary:
      'Approve ({ authorization_id, approve: true, agent_ids }) or deny ({ authorization_id, approve: false }): 302 to the client with code and state (or error=access_denied)',
    description:
      "A browser (the consent page's form, or any request without an explicit JSON `Accept`) gets the 302. A script that sends `Accept: application/json` (before `text/html`) gets 200 `{ redirect_to }` instead and follows it itself.",
  })
  @ApiOkResponse({
    description: 'For `Accept: application/json`: where to send the browser (`code` and `state`, or `error=access_denied`)',
    type: OAuthRedirectResponse,
  })
  @AcceptsBody(...FORM_OR_JSON)
  @ApiBody({ type: DecideConsentDto })
  @redirect('To the client: `code` and `state`, or `error=access_denied`')
  async consent(
    @CurrentPrincipal() principal: Principal,
    @Req() req: FastifyRequest,
    @Body() dto: DecideConsentDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ redirect_to: string }> {
    const form = String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
    const body: DecideConsentDto = form
      ? { ...dto, approve: bool(dto.approve) as boolean, agent_ids: typeof dto.agent_ids === 'string' ? [dto.agent_ids] : dto.agent_ids }
      : dto;
    const { location } = await this.commands.execute(new DecideConsentCommand((principal as HumanPrincipal).userId, body, this.urls.issuer(req)));
    reply.header('cache-control', 'no-store');
    // an explicit JSON client follows the redirect itself; everything else is redirected
    if (req.headers.accept && wantsJson(req.headers.accept)) reply.status(200);
    else reply.header('location', location);
    return { redirect_to: location };
  }

  @Post('token')
  @Public()
  @HttpCode(200)
  @ApiOperation({ summary: 'Token endpoint: authorization_code (PKCE) and refresh_token (rotation, reuse revokes the connection); form or JSON; rate-limited' })
  @AcceptsBody(...FORM_OR_JSON)
  @ApiBody({ schema: TOKEN_REQUEST })
  @ApiOkResponse({ type: OAuthTokenResponse })
  @ApiErrors({ 401: '`invalid_client`: `client_id` does not name a registered client', 429: RATE_LIMITED })
  async token(@Req() req: FastifyRequest, @Body() body: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply): Promise<unknown> {
    reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
    return this.commands.execute(new ExchangeTokenCommand(body, this.urls.resource(req), req.ip));
  }

  @Post('revoke')
  @Public()
  @HttpCode(200)
  @ApiOperation({ summary: 'RFC 7009 revocation (token, client_id): 200 whatever the token; a refresh token revokes its connection' })
  @AcceptsBody(...FORM_OR_JSON)
  @ApiBody({ schema: REVOKE_REQUEST })
  @ApiOkResponse({ type: OAuthRevocationResponse, description: 'Always `{}`' })
  @ApiErrors({ 401: '`invalid_client`: `client_id` is missing or not a client id' })
  revoke(@Body() body: Record<string, unknown>): Promise<unknown> {
    return this.commands.execute(new RevokeTokenCommand(body));
  }

  @Get('connections')
  @HumanOnly()
  @ApiOperation({ summary: "The signed-in human's OAuth connections (client, resource, consented agents; never tokens)" })
  @ApiOkResponse({ type: OAuthConnectionListResponse })
  connections(@CurrentPrincipal() principal: Principal): Promise<unknown> {
    return this.queries.execute(new ListConnectionsQuery((principal as HumanPrincipal).userId));
  }

  @Delete('connections/:connectionId')
  @HumanOnly()
  @ApiOperation({ summary: 'Revoke a connection: its tokens are refused from the next request' })
  @ApiOkResponse({ type: OAuthSuccessResponse })
  revokeConnection(@CurrentPrincipal() principal: Principal, @Param('connectionId', UuidParamPipe) id: string): Promise<unknown> {
    return this.commands.execute(new RevokeConnectionCommand((principal as HumanPrincipal).userId, id));
  }

  @Get('agent-profiles')
  @Public()
  @ApiSecurity('oauth')
  @ApiSecurity('apiKey')
  @ApiOperation({
    summary: 'The usable agent profiles of the calling OAuth connection ({ resource, profiles[] }), project access live',
    description: 'API key: 400 profile_selector_not_supported; no usable profile: 403 no_profiles_authorized; missing or invalid token: 401',
  })
  @ApiOkResponse({ type: OAuthAgentProfilesResponse })
  profiles(@Req() req: FastifyRequest): Promise<unknown> {
    return this.queries.execute(new GetAgentProfilesQuery(bearerOf(req), this.urls.resource(req)));
  }
}
