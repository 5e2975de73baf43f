import { applyDecorators, createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiSecurity } from '@nestjs/swagger';
import { Errors } from '../errors/domain-error';
import type { Actor, Principal } from './principal';

export const IS_PUBLIC = 'auth:public';
export const ORG_SCOPE = 'auth:org-scope';
export const PRINCIPAL_KIND = 'auth:principal-kind';
export const SESSION_WRITE = 'auth:session-write';

/** No authentication needed (documented as such in the OpenAPI document). */
export const Public = () => applyDecorators(SetMetadata(IS_PUBLIC, true), ApiSecurity({}));
/** A public route that acts on the session cookie it receives (logout): it gets the origin check of cookie-authenticated writes. */
export const SessionWrite = () => SetMetadata(SESSION_WRITE, true);

export interface OrgScopeSource {
  from: 'param' | 'query';
  key: string;
  /** The key holds the id of a row of this tenant table, whose `org_id` is the organization (unknown id: 404). */
  via?: 'webhooks';
}
/** The route acts inside the organization named by a path parameter (default `id`) or query key. */
export const OrgScoped = (source: OrgScopeSource = { from: 'param', key: 'id' }) => SetMetadata(ORG_SCOPE, source);
/** Only humans (web sessions) may call the route. */
export const HumanOnly = () => SetMetadata(PRINCIPAL_KIND, 'human');
/** Only agents (API keys) may call the route. */
export const AgentOnly = () => SetMetadata(PRINCIPAL_KIND, 'agent');

export interface AuthedRequest {
  user?: Principal;
  actor?: Actor;
}

export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal => {
  const req = ctx.switchToHttp().getRequest<AuthedRequest>();
  if (!req.user) throw Errors.unauthorized();
  return req.user;
});

/** The caller's live member record in the route's organization (set by the auth guard). */
export const CurrentActor = createParamDecorator((_: unknown, ctx: ExecutionContext): Actor => {
  const req = ctx.switchToHttp().getRequest<AuthedRequest>();
  if (!req.actor) throw Errors.unauthorized();
  return req.actor;
});
