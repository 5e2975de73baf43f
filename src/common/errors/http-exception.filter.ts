import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { QueryFailedError } from 'typeorm';
import { DomainError } from './domain-error';

interface ErrorBody {
  error: string;
  code?: string;
  [k: string]: unknown;
}

const STATUS_CODES: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'unprocessable_entity',
  429: 'rate_limited',
};

/** PostgreSQL errors that bad input or a lost race can cause: mapped to 4xx, never shown raw. */
function fromPostgres(e: QueryFailedError): { status: number; body: ErrorBody } | null {
  const code = (e.driverError as { code?: string } | undefined)?.code;
  const constraint = (e.driverError as { constraint?: string } | undefined)?.constraint;
  switch (code) {
    case '23505':
      return { status: 409, body: { error: 'A conflicting record already exists', code: 'conflict' } };
    case '23503':
      // deferred foreign keys of artifact links: an issue or project with artifact links is not deleted
      if (
        (constraint === 'artifact_links_issue_fk' || constraint === 'artifact_links_project_fk') &&
        /still referenced/.test((e.driverError as { detail?: string } | undefined)?.detail ?? '')
      )
        return {
          status: 409,
          body: { error: 'Artifacts are linked to this issue or project: unlink or reassign the artifacts first', code: 'artifact_links_exist' },
        };
      return { status: 404, body: { error: 'A referenced record does not exist', code: 'not_found' } };
    case '23514':
      if (constraint === 'members_last_owner') return { status: 409, body: { error: 'The organization must keep at least one owner', code: 'last_owner' } };
      return { status: 400, body: { error: 'A value is out of the allowed range', code: 'validation_failed' } };
    case '23502':
    case '22P02':
    case '22001':
    case '22003':
    case '22007':
    case '22008':
    case '22021':
    case '22P05': // e.g. NUL (\u0000) in a jsonb value
      return { status: 400, body: { error: 'Invalid value', code: 'validation_failed' } };
    case '40001':
    case '40P01':
      // TxRunner already ran the transaction again several times: the database is too busy with
      // concurrent writes to the same rows, which is not the client's doing (no 409)
      return { status: 503, body: { error: 'Too many concurrent writes to the same records; retry the request', code: 'concurrent_writes' } };
    default:
      return null;
  }
}

/** The one error filter: every failure leaves as `{ error, code? }` with no internals. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const reply = ctx.getResponse<FastifyReply>();
    const req = ctx.getRequest<FastifyRequest>();
    const { status, body, headers } = toErrorResponse(exception, req);
    if (status >= 500) {
      this.logger.error({ err: exception, method: req?.method, url: req?.url }, 'unhandled error');
    }
    if (reply.sent) return;
    for (const [k, v] of Object.entries(headers)) reply.header(k, v);
    reply.status(status).type('application/json; charset=utf-8').send(JSON.stringify(body));
  }
}

/** The status, `{ error, code }` body and headers of a failure: the filter's mapping, also used where errors leave another way (MCP tool errors). */
export function toErrorResponse(exception: unknown, req?: FastifyRequest): { status: number; body: ErrorBody; headers: Record<string, string> } {
  {
    const headers: Record<string, string> = {};
    if (exception instanceof DomainError) {
      if ((exception.status === 429 || exception.status === 503) && typeof exception.extra.retryAfterSeconds === 'number') {
        headers['retry-after'] = String(exception.extra.retryAfterSeconds);
      }
      return { status: exception.status, body: { error: exception.message, code: exception.code, ...exception.extra }, headers };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status === 404) {
        return { status, body: { error: 'Not found', code: 'not_found' }, headers };
      }
      if (status === 401) return { status, body: { error: 'Unauthorized', code: 'unauthorized' }, headers };
      const resp = exception.getResponse();
      let message = exception.message;
      if (typeof resp === 'object' && resp && 'message' in resp) {
        const m = (resp as { message: unknown }).message;
        message = Array.isArray(m) ? m.join('; ') : String(m);
      }
      if (status >= 500) return { status: 500, body: { error: 'Internal server error', code: 'internal_error' }, headers };
      return { status, body: { error: message, code: STATUS_CODES[status] ?? 'error' }, headers };
    }
    if (exception instanceof QueryFailedError) {
      const mapped = fromPostgres(exception);
      if (mapped) return { ...mapped, headers: mapped.status === 503 ? { 'retry-after': '1' } : headers };
    }
    // Fastify's own errors (malformed JSON, wrong content type, body too large) carry a 4xx statusCode.
    const fst = exception as { statusCode?: number; code?: string } | undefined;
    if (fst && typeof fst.statusCode === 'number' && fst.statusCode >= 400 && fst.statusCode < 500) {
      const status = fst.statusCode;
      const messages: Record<string, string> = {
        FST_ERR_CTP_INVALID_JSON_BODY: 'Request body is not valid JSON',
        FST_ERR_CTP_EMPTY_JSON_BODY: 'Request body is empty; send a JSON object',
        FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported content type; send application/json',
        FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large',
      };
      const error =
        (fst.code && messages[fst.code]) || (status === 413 ? 'Request body is too large' : status === 415 ? 'Unsupported content type' : 'Invalid request');
      return { status, body: { error, code: STATUS_CODES[status] ?? 'bad_request' }, headers };
    }
    if (exception instanceof SyntaxError && req && (req as { body?: unknown }).body === undefined) {
      return { status: 400, body: { error: 'Request body is not valid JSON', code: 'bad_request' }, headers };
    }
    return { status: 500, body: { error: 'Internal server error', code: 'internal_error' }, headers };
  }
}
