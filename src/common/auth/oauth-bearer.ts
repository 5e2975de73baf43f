import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { AgentPrincipal, Principal } from './principal';

/**
 * Non-secret provenance of an OAuth-bound agent call (`auth.oauth` of /api/auth/me): who consented,
 * through which client, for which protected resource. Never holds a token or key.
 */
export interface OAuthProvenance {
  connection_id: string;
  profile_ref: string;
  resource: string;
  client: { client_id: string; client_name: string | null };
  consented_by: { user_id: string; display_name: string };
}

/** An agent acting through an OAuth access token (a connection's consented profile). */
export type OAuthAgentPrincipal = AgentPrincipal & { oauth: OAuthProvenance };

/** The OAuth provenance of a principal, when it authenticated with an OAuth access token. */
export const oauthOf = (p: Principal | undefined): OAuthProvenance | undefined => (p as Partial<OAuthAgentPrincipal> | undefined)?.oauth;

/** Resolves a bearer that is not an API key as an OAuth access token (the oauth module implements it). */
export interface OAuthBearerResolver {
  /** The agent the token acts as on this request, null for an unknown/expired/revoked token; throws the profile errors. */
  principal(token: string, req: FastifyRequest): Promise<OAuthAgentPrincipal | null>;
}

/**
 * The hook through which the auth guard's bearer strategy accepts OAuth access tokens: src/common
 * cannot depend on a module, so the oauth module registers its resolver here at start-up. Without
 * one (the worker), bearers other than API keys are simply unknown.
 */
@Injectable()
export class OAuthBearers {
  private resolver: OAuthBearerResolver | null = null;

  use(resolver: OAuthBearerResolver): void {
    this.resolver = resolver;
  }

  principal(token: string, req: FastifyRequest): Promise<OAuthAgentPrincipal | null> {
    return this.resolver ? this.resolver.principal(token, req) : Promise.resolve(null);
  }
}
