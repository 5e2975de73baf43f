/**
 * Every expected failure is a DomainError with an HTTP status, a stable `code` and a readable
 * message. The global filter turns it into `{ error, code, ...extra }`.
 */
export class DomainError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const Errors = {
  validation: (message: string, extra?: Record<string, unknown>) => new DomainError(400, 'validation_failed', message, extra),
  unauthorized: () => new DomainError(401, 'unauthorized', 'Unauthorized'),
  forbidden: (message = 'You do not have permission to do this') => new DomainError(403, 'forbidden', message),
  notFound: (what = 'Not found') => new DomainError(404, 'not_found', what),
  conflict: (message: string, code = 'conflict', extra?: Record<string, unknown>) => new DomainError(409, code, message, extra),
  tooLarge: (message = 'Payload too large') => new DomainError(413, 'payload_too_large', message),
  unprocessable: (message: string, code: string, extra?: Record<string, unknown>) => new DomainError(422, code, message, extra),
  planLimit: (resource: string, plan: string, limit: number, usage: number) =>
    new DomainError(402, 'PLAN_LIMIT_REACHED', 'Plan limit reached', { resource, plan, limit, usage }),
  rateLimited: (retryAfterSeconds: number, limit: number, currentCount: number) =>
    new DomainError(429, 'RATE_LIMITED', 'Too many requests', { retryAfterSeconds, limit, currentCount }),
  rateLimitCheckFailed: () => new DomainError(503, 'RATE_LIMIT_CHECK_FAILED', 'Rate limit check failed', { retryAfterSeconds: null }),
  /** The process is at a capacity bound (not the caller's rate): 503 with Retry-After. */
  busy: (message: string, code: string, retryAfterSeconds: number) => new DomainError(503, code, message, { retryAfterSeconds }),
};
