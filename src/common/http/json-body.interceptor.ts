import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import type { FastifyRequest } from 'fastify';
import type { Observable } from 'rxjs';
import { DomainError } from '../errors/domain-error';

/** `application/json; charset=utf-8` → `application/json` ('' when absent). */
const mediaType = (header: string | undefined) => (header ?? '').split(';')[0].trim().toLowerCase();

/** Whether the request carries a body (a non-zero length or a chunked one): a body-less POST is `{}`. */
const hasBody = (headers: FastifyRequest['headers']) =>
  headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0');

/**
 * The 415 of a JSON route: a request body in another content type (`text/plain`, a form, multipart)
 * is refused up front, saying what is expected, instead of being read as no body (which made the
 * validation blame a missing field). Fastify itself answers 415 for content types it has no parser
 * for (and for a body without `Content-Type`). Routes without a `@Body()` parameter (multipart
 * uploads, body-less actions) pass through.
 */
export function unsupportedBodyType(headers: FastifyRequest['headers']): DomainError | null {
  if (!hasBody(headers)) return null;
  const type = mediaType(headers['content-type']);
  if (type === 'application/json') return null;
  return new DomainError(
    415,
    'unsupported_media_type',
    `Unsupported content type ${type ? `\`${type}\`` : '(none)'}: send the request body as JSON with \`Content-Type: application/json\``,
  );
}

type Class = abstract new (...args: never[]) => unknown;

/** Applies `unsupportedBodyType` to every route that takes a `@Body()` (registered globally in app.factory.ts). */
@Injectable()
export class JsonBodyInterceptor implements NestInterceptor {
  private readonly takesBody = new WeakMap<object, boolean>();

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (ctx.getType() === 'http' && this.bodyRoute(ctx.getClass(), ctx.getHandler())) {
      const problem = unsupportedBodyType(ctx.switchToHttp().getRequest<FastifyRequest>().headers);
      if (problem) throw problem;
    }
    return next.handle();
  }

  private bodyRoute(type: Class, handler: { name: string }): boolean {
    let takes = this.takesBody.get(handler);
    if (takes === undefined) {
      const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, type, handler.name) ?? {}) as Record<string, unknown>;
      takes = Object.keys(args).some((key) => key.split(':')[0] === String(RouteParamtypes.BODY));
      this.takesBody.set(handler, takes);
    }
    return takes;
  }
}
