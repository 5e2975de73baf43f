import { type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { AuthedRequest } from '../../common/auth/decorators';
import { DomainError, Errors } from '../../common/errors/domain-error';
import { ISSUE_REFERENCE_PARAM } from '../../common/http/issue-reference';
import { type RequestStep, RequestSteps } from '../../common/http/request-steps';
import { isUuid } from '../../common/http/validation';
import { IssueReferenceResolver } from './issue-reference.resolver';

/**
 * Resolves the issue reference of routes marked `@IssueAddressed()` (src/common/http/issue-reference.ts)
 * with the issue detail's resolver, then replaces the path parameter by the canonical UUID (a UUID
 * passes through: the handlers check it, see `run`). A request
 * step (src/common/http/request-steps.ts): runs after authentication (the caller's member record is
 * known), before pipes and the handler; other routes pass through untouched. IssuesModule provides
 * it, and it adds itself to the steps of every route.
 */
@Injectable()
export class IssueReferenceStep implements RequestStep {
  constructor(
    private readonly reflector: Reflector,
    private readonly resolver: IssueReferenceResolver,
    steps: RequestSteps,
  ) {
    steps.add(this);
  }

  async run(ctx: ExecutionContext): Promise<void> {
    const param =
      ctx.getType() === 'http' ? this.reflector.getAllAndOverride<string | undefined>(ISSUE_REFERENCE_PARAM, [ctx.getHandler(), ctx.getClass()]) : undefined;
    if (param) {
      const req = ctx.switchToHttp().getRequest<AuthedRequest & { params?: Record<string, string> }>();
      const reference = req.params?.[param];
      // OrgScoped routes always have the actor here (the guard answered 401/404 otherwise).
      // A UUID goes to the handler as it is: every issue-addressed handler reads (or locks) the
      // issue by id with the caller's access itself and answers its own 404 `not_found` for an
      // unknown or unreadable one, so a look-up here would be the same statement twice.
      if (req.actor && req.params && typeof reference === 'string')
        req.params[param] = isUuid(reference) ? reference.toLowerCase() : await this.canonical(req.actor, reference);
    }
  }

  /** A UUID that names no readable issue keeps the UUID-addressed routes' own 404 `not_found` (interface.md); other forms get the detail's errors. */
  private async canonical(actor: NonNullable<AuthedRequest['actor']>, reference: string): Promise<string> {
    try {
      return (await this.resolver.resolve(actor, reference)).id;
    } catch (e) {
      if (e instanceof DomainError && e.code === 'reference_not_found' && isUuid(reference)) throw Errors.notFound('Issue not found');
      throw e;
    }
  }
}
