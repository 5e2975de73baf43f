import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { Strategy } from 'passport-custom';
import { AuthService } from './auth.service';
import { OAuthBearers } from './oauth-bearer';
import type { Principal } from './principal';
import { API_KEY_PREFIX, SESSION_COOKIE } from './tokens';

/** `Authorization: Bearer sk_service_<key>` for agents, or an OAuth access token bound to this service's MCP resource. */
@Injectable()
export class ApiKeyStrategy extends PassportStrategy(Strategy, 'api-key') {
  constructor(
    private readonly auth: AuthService,
    private readonly oauth: OAuthBearers,
  ) {
    super();
  }
  async validate(req: FastifyRequest): Promise<Principal | false> {
    const header = req.headers.authorization;
    if (!header) return false;
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!m) return false;
    if (!m[1].startsWith(API_KEY_PREFIX)) return (await this.oauth.principal(m[1], req)) ?? false;
    return (await this.auth.fromApiKey(m[1])) ?? false;
  }
}

/** The web-session cookie for humans (opaque random id; the session lives in PostgreSQL). */
@Injectable()
export class SessionStrategy extends PassportStrategy(Strategy, 'session') {
  constructor(private readonly auth: AuthService) {
    super();
  }
  async validate(req: FastifyRequest): Promise<Principal | false> {
    if (req.headers.authorization) return false; // an explicit bearer credential is never overridden by a cookie
    const token = (req as FastifyRequest & { cookies?: Record<string, string | undefined> }).cookies?.[SESSION_COOKIE];
    if (!token) return false;
    return (await this.auth.fromSessionToken(token)) ?? false;
  }
}
