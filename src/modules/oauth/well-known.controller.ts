import { Controller, Get, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { OAuthMetadata, OAuthProtectedResourceMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import { Public } from '../../common/auth/decorators';
import { OAuthUrls } from './oauth-urls';
import { OAuthAuthorizationServerMetadataResponse, OAuthProtectedResourceMetadataResponse } from './oauth.response';

/** OAuth 2.1 discovery for the MCP resource: RFC 9728 protected-resource metadata and RFC 8414 authorization-server metadata. */
@ApiTags('oauth')
@Public()
@Controller('.well-known')
export class WellKnownController {
  constructor(private readonly urls: OAuthUrls) {}

  @Get('oauth-protected-resource')
  @ApiOperation({ summary: 'RFC 9728 protected-resource metadata of the MCP resource (`<origin>/mcp`)' })
  @ApiOkResponse({ type: OAuthProtectedResourceMetadataResponse })
  protectedResource(@Req() req: FastifyRequest): OAuthProtectedResourceMetadata {
    return {
      resource: this.urls.resource(req),
      authorization_servers: [this.urls.issuer(req)],
      bearer_methods_supported: ['header'],
      resource_name: 'Service MCP endpoint',
    };
  }

  /** RFC 9728 §3.1: the metadata of resource `<origin>/mcp` is also found at the path-suffixed well-known URL. */
  @Get('oauth-protected-resource/mcp')
  @ApiOperation({ summary: 'RFC 9728 §3.1: the same metadata at the path-suffixed URL of resource `/mcp`' })
  @ApiOkResponse({ type: OAuthProtectedResourceMetadataResponse })
  protectedResourceForPath(@Req() req: FastifyRequest): OAuthProtectedResourceMetadata {
    return this.protectedResource(req);
  }

  @Get('oauth-authorization-server')
  @ApiOperation({ summary: 'RFC 8414 authorization-server metadata (endpoints, PKCE S256, public clients)' })
  @ApiOkResponse({ type: OAuthAuthorizationServerMetadataResponse })
  authorizationServer(@Req() req: FastifyRequest): OAuthMetadata {
    return {
      issuer: this.urls.issuer(req),
      authorization_endpoint: this.urls.endpoint(req, 'authorize'),
      token_endpoint: this.urls.endpoint(req, 'token'),
      registration_endpoint: this.urls.endpoint(req, 'register'),
      revocation_endpoint: this.urls.endpoint(req, 'revoke'),
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      revocation_endpoint_auth_methods_supported: ['none'],
      authorization_response_iss_parameter_supported: true,
    } as OAuthMetadata;
  }
}
