import { type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { Errors } from '../errors/domain-error';
import { JsonBodyCheck } from '../http/json-body';
import { RequestSteps } from '../http/request-steps';
import { isUuid } from '../http/validation';
import { AuthRepository } from './auth.repository';
import { type AuthedRequest, IS_PUBLIC, ORG_SCOPE, type OrgScopeSource, PRINCIPAL_KIND, SESSION_WRITE } from './decorators';
import { Actor, type Principal } from './principal';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The one global guard: authenticates through the passport strategies (API key, then session
 * cookie), refuses cross-site cookie writes (logout included: `@SessionWrite()`), and for organization routes resolves the caller's
 * live member record (a non-member gets 404: the organization's existence is not disclosed). Then,
 * on every route (public ones too), it runs the modules' request steps (`RequestSteps`) and refuses
 * a request body of a media type the route does not take (415, `JsonBodyCheck`), in place of
 * global interceptors.
 */
@Injectable()
export class GlobalAuthGuard extends AuthGuard(['api-key', 'session']) {
  constructor(
    private readonly reflector: Reflector,
    private readonly repo: AuthRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly steps: RequestSteps,
  ) {
    super();
  }

  private readonly jsonBody = new JsonBodyCheck();

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    const req = context.switchToHttp().getRequest<FastifyRequest & AuthedRequest>();
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) {
      if (this.reflector.getAllAndOverride<boolean>(SESSION_WRITE, targets) && !SAFE_METHODS.has(req.method)) this.assertSameSite(req);
      return this.afterAuthentication(context);
    }
    await super.canActivate(context);
    const principal = req.user as Principal;
    if (principal.kind === 'human' && !SAFE_METHODS.has(req.method)) this.assertSameSite(req);
    const kind = this.reflector.getAllAndOverride<'human' | 'agent' | undefined>(PRINCIPAL_KIND, targets);
    const scope = this.reflector.getAllAndOverride<OrgScopeSource | undefined>(ORG_SCOPE, targets);
    if (scope) req.actor = await this.resolveActor(req, principal, scope);
    if (kind && principal.kind !== kind) {
      throw Errors.forbidden(kind === 'human' ? 'This route requires a human web session' : 'This route is for agents (API keys) only');
    }
    return this.afterAuthentication(context);
  }

  /** The modules' request steps, then the body's media type: the order the interceptors they replace ran in. */
  private async afterAuthentication(context: ExecutionContext): Promise<true> {
    await this.steps.run(context);
    this.jsonBody.run(context);
    return true;
  }

  override handleRequest<T>(err: unknown, user: T): T {
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- passport's own error, rethrown as it came
    if (err) throw err;
    if (!user) throw Errors.unauthorized();
    return user;
  }

  /** Cookie-authenticated writes must come from the service's own origin (or a configured trusted one). */
  private assertSameSite(req: FastifyRequest): void {
    const site = req.headers['sec-fetch-site'];
    if (site === 'cross-site') throw Errors.forbidden('Cross-site request refused');
    const origin = req.headers.origin ?? refererOrigin(req.headers.referer);
    if (!origin) return; // not a browser: a non-browser client cannot be tricked into sending the cookie
    const host = req.headers.host;
    const own = host ? [`http://${host}`, `https://${host}`] : [];
    if (origin !== 'null' && (own.includes(origin) || this.config.trustedOrigins.includes(origin))) return;
    throw Errors.forbidden('Cross-site request refused');
  }

  /** The organization of a tenant row named by id (404 when there is none). */
  private async orgOf(via: NonNullable<OrgScopeSource['via']>, id: string): Promise<string> {
    const orgId = await this.repo.orgOf(via, id);
    if (!orgId) throw Errors.notFound();
    return orgId;
  }

  private async resolveActor(req: FastifyRequest, principal: Principal, scope: OrgScopeSource): Promise<Actor> {
    const bag = (scope.from === 'param' ? req.params : req.query) as Record<string, unknown>;
    const given = bag?.[scope.key];
    if (typeof given !== 'string' || !isUuid(given)) {
      if (scope.from === 'query' && given === undefined) throw Errors.validation(`${scope.key} query parameter is required`);
      throw Errors.notFound();
    }
    const orgId = scope.via ? await this.orgOf(scope.via, given) : given;
    if (principal.kind === 'agent') {
      if (principal.orgId !== orgId) throw Errors.notFound();
      return new Actor(
        orgId,
        principal.memberId,
        'agent',
        principal.role,
        principal.displayName,
        principal,
        principal.agentScope,
        principal.ownerMemberId,
        principal.avatarUrl,
        principal.grants,
      );
    }
    const m = await this.repo.humanMember(orgId, principal.userId);
    if (!m) throw Errors.notFound();
    return new Actor(orgId, m.id, 'human', m.role, m.display_name, principal, null, null, m.avatar_url, m.grants);
  }
}

function refererOrigin(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return 'null';
  }
}
