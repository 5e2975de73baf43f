import { type ExecutionContext, Injectable } from '@nestjs/common';

/**
 * A check or rewrite of the request that a module contributes to every HTTP route: it runs after
 * authentication (the caller's actor is known on organization routes; public routes have none)
 * and before the pipes and the handler, and may throw a DomainError. Example: the issues module's
 * issue-reference resolution (`@IssueAddressed()` routes).
 */
export interface RequestStep {
  run(ctx: ExecutionContext): void | Promise<void>;
}

/**
 * The request steps of the process, run by the one global guard (GlobalAuthGuard) in the order
 * the modules registered them (a module adds its step when its provider is built). They are plain
 * functions rather than Nest interceptors on purpose: a route without any interceptor skips Nest's
 * rxjs pipeline altogether, which was a measurable share of a lease write's CPU time
 * (docs/DECISIONS.md, "Request pipeline").
 */
@Injectable()
export class RequestSteps {
  private readonly steps: RequestStep[] = [];

  add(step: RequestStep): void {
    this.steps.push(step);
  }

  async run(ctx: ExecutionContext): Promise<void> {
    for (const step of this.steps) {
      const pending = step.run(ctx);
      if (pending) await pending;
    }
  }
}
