import { applyDecorators, type ExecutionContext, SetMetadata } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import { ApiConsumes } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '../errors/domain-error';

/** `application/json; charset=utf-8` → `application/json` ('' when absent). */
const mediaType = (header: string | undefined) => (header ?? '').split(';')[0].trim().toLowerCase();

/** Whether the request carries a body (a non-zero length or a chunked one): a body-less POST is `{}`. */
const hasBody = (headers: FastifyRequest['headers']) =>
  headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0');

export const BODY_MEDIA_TYPES = 'http:body-media-types';

const JSON_ONLY: readonly string[] = ['application/json'];

/**
 * The request body media types a route accepts beyond JSON (on a method or a controller), e.g. the
 * OAuth endpoints that take `application/x-www-form-urlencoded` (RFC 6749/7009). The JSON-body check
 * lets these through and the OpenAPI document lists them as the request body's content types
 * (`ApiConsumes`). A parser for the type must be registered too (src/app.factory.ts).
 */
export const AcceptsBody = (...mediaTypes: string[]): MethodDecorator & ClassDecorator =>
  applyDecorators(SetMetadata(BODY_MEDIA_TYPES, mediaTypes), ApiConsumes(...mediaTypes));

const described = (types: readonly string[]) => types.map((t) => `\`${t}\``).join(' or ');

/** The message of the 415: the type sent and what the route accepts. */
export function unsupportedBodyTypeMessage(type: string, accepted: readonly string[] = JSON_ONLY): string {
  const expected =
    accepted.length === 1 && accepted[0] === 'application/json'
      ? 'send the request body as JSON with `Content-Type: application/json`'
      : `send the request body as ${described(accepted)}`;
  return `Unsupported content type ${type ? `\`${type}\`` : '(none)'}: ${expected}`;
}

/**
 * The 415 of a JSON route: a request body in another content type (`text/plain`, a form, multipart)
 * is refused up front, saying what is expected, instead of being read as no body (which made the
 * validation blame a missing field). Fastify itself answers 415 for content types it has no parser
 * for (and for a body without `Content-Type`). Routes without a `@Body()` parameter (multipart
 * uploads, body-less actions) pass through.
 */
export function unsupportedBodyType(headers: FastifyRequest['headers'], accepted: readonly string[] = JSON_ONLY): DomainError | null {
  if (!hasBody(headers)) return null;
  const type = mediaType(headers['content-type']);
  if (accepted.includes(type)) return null;
  return new DomainError(415, 'unsupported_media_type', unsupportedBodyTypeMessage(type, accepted));
}

type Class = abstract new (...args: never[]) => unknown;

/**
 * Applies `unsupportedBodyType` to every route that takes a `@Body()` (the global guard runs it on
 * every route, after the request steps): JSON, or the media types the route declares with
 * `@AcceptsBody`.
 */
export class JsonBodyCheck {
  /** Per handler: the media types its body may have, or null for a route without `@Body()`. */
  private readonly accepted = new WeakMap<object, readonly string[] | null>();

  run(ctx: ExecutionContext): void {
    if (ctx.getType() !== 'http') return;
    const accepted = this.acceptedBy(ctx.getClass(), ctx.getHandler());
    if (!accepted) return;
    const problem = unsupportedBodyType(ctx.switchToHttp().getRequest<FastifyRequest>().headers, accepted);
    if (problem) throw problem;
  }

  private acceptedBy(type: Class, handler: { name: string }): readonly string[] | null {
    let accepted = this.accepted.get(handler);
    if (accepted === undefined) {
      const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, type, handler.name) ?? {}) as Record<string, unknown>;
      const takesBody = Object.keys(args).some((key) => key.split(':')[0] === String(RouteParamtypes.BODY));
      accepted = takesBody ? ((Reflect.getMetadata(BODY_MEDIA_TYPES, handler) ?? Reflect.getMetadata(BODY_MEDIA_TYPES, type) ?? JSON_ONLY) as string[]) : null;
      this.accepted.set(handler, accepted);
    }
    return accepted;
  }
}
