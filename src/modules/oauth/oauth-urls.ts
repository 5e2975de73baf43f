import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { APP_CONFIG, type AppConfig } from '../../config/config';

/** Where the authorization server and the protected MCP resource live (SERVICE_PUBLIC_URL, else the request's own origin). */
@Injectable()
export class OAuthUrls {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  issuer(req: FastifyRequest): string {
    return this.config.publicUrl ?? `${req.protocol}://${req.host}`;
  }
  /** The exact protected resource string every token is bound to (RFC 8707). */
  resource(req: FastifyRequest): string {
    return `${this.issuer(req)}/mcp`;
  }
  resourceMetadata(req: FastifyRequest): string {
    return `${this.issuer(req)}/.well-known/oauth-protected-resource`;
  }
  endpoint(req: FastifyRequest, name: 'authorize' | 'token' | 'register' | 'revoke'): string {
    return `${this.issuer(req)}/api/oauth/${name}`;
  }
}
