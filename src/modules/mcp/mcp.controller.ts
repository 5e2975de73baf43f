import { Controller, Delete, Get, Post, Req, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../common/openapi/decorators';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AuthService } from '../../common/auth/auth.service';
import { Public } from '../../common/auth/decorators';
import { API_KEY_PREFIX } from '../../common/auth/tokens';
import { OAuthProfiles } from '../oauth/oauth-profiles.service';
import { OAuthUrls } from '../oauth/oauth-urls';
import { type McpCaller, McpServerFactory } from './mcp-server.factory';

/** A JSON-RPC 2.0 response (or a batch of them): `result` or `error`. */
const JSON_RPC_RESPONSE = {
  type: 'object',
  required: ['jsonrpc'],
  properties: {
    jsonrpc: { type: 'string', enum: ['2.0'] },
    id: { type: ['string', 'integer', 'null'] },
    result: { type: 'object', additionalProperties: true },
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'integer' }, message: { type: 'string' }, data: {} },
    },
  },
};
const STATELESS = '`method_not_allowed`: this MCP server is stateless (POST only; `Allow: POST`)';

const json = (reply: FastifyReply, status: number, body: unknown): void => {
  reply.status(status).type('application/json; charset=utf-8').send(JSON.stringify(body));
};

/**
 * The MCP endpoint (Streamable HTTP, stateless: a fresh SDK server and transport per request, so
 * any API replica answers any request and nothing is kept between them). POST carries JSON-RPC;
 * GET (server-initiated stream) and DELETE (session end) are 405, as the transport allows for a
 * server without sessions. Bearer: an agent API key or an OAuth access token bound to this
 * resource; otherwise 401 with `WWW-Authenticate` naming the protected-resource metadata.
 */
@ApiTags('mcp')
@Public()
@Controller('mcp')
export class McpController {
  constructor(
    private readonly servers: McpServerFactory,
    private readonly auth: AuthService,
    private readonly oauth: OAuthProfiles,
    private readonly urls: OAuthUrls,
  ) {}

  @Post()
  @ApiSecurity('apiKey')
  @ApiSecurity('oauth')
  @ApiOperation({ summary: 'MCP Streamable HTTP endpoint (POST JSON-RPC; bearer agent API key or OAuth access token for this resource)' })
  @ApiOkResponse({
    description: 'The JSON-RPC response(s) to the request(s) sent (JSON, never a stream)',
    schema: { oneOf: [JSON_RPC_RESPONSE, { type: 'array', items: JSON_RPC_RESPONSE }] },
  })
  @ApiAcceptedResponse({ description: 'Only notifications or responses were sent: nothing to answer' })
  post(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.handle(req, reply);
  }

  @Get()
  @ApiSecurity('apiKey')
  @ApiSecurity('oauth')
  @ApiOperation({ summary: 'Streamable HTTP GET: 405, this MCP server is stateless (no server-sent event stream)' })
  @ApiErrors({ 405: STATELESS })
  get(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.handle(req, reply);
  }

  @Delete()
  @ApiSecurity('apiKey')
  @ApiSecurity('oauth')
  @ApiOperation({ summary: 'Streamable HTTP DELETE: 405, this MCP server is stateless (no session to end)' })
  @ApiErrors({ 405: STATELESS })
  delete(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.handle(req, reply);
  }

  private async handle(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const caller = await this.callerOf(req);
    if (!caller) {
      reply.header('www-authenticate', `Bearer resource_metadata="${this.urls.resourceMetadata(req)}"`);
      return json(reply, 401, { error: 'Unauthorized', code: 'unauthorized' });
    }
    if (req.method !== 'POST') {
      reply.header('allow', 'POST');
      return json(reply, 405, { error: 'Method not allowed: this MCP server is stateless (POST only)', code: 'method_not_allowed' });
    }
    const server = this.servers.create(caller);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    reply.hijack();
    await transport.handleRequest(req.raw, reply.raw, req.body);
  }

  private async callerOf(req: FastifyRequest): Promise<McpCaller | null> {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
    if (!token) return null;
    if (token.startsWith(API_KEY_PREFIX)) {
      const principal = await this.auth.fromApiKey(token);
      return principal ? { kind: 'api-key', principal } : null;
    }
    const grant = await this.oauth.grantOf(token, req);
    return grant ? { kind: 'oauth', grant } : null;
  }
}
