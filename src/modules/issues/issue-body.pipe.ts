import { Injectable, type PipeTransform } from '@nestjs/common';
import { Errors } from '../../common/errors/domain-error';
import { jsonDepth, MAX_BODY_DEPTH } from '../../common/http/validation';

/**
 * Issue request bodies are read field by field by the issue input rules (issue-input.ts), so the
 * routes take the parsed JSON as is instead of running it through class-transformer, which
 * recurses into every unknown property (a deeply nested unknown value would overflow the stack).
 * The body must be a JSON object; a missing body counts as `{}`.
 */
@Injectable()
export class IssueBodyPipe implements PipeTransform<unknown, Record<string, unknown>> {
  transform(value: unknown): Record<string, unknown> {
    if (value === undefined) return {};
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw Errors.validation('Request body must be a JSON object');
    if (jsonDepth(value) > MAX_BODY_DEPTH) throw Errors.validation(`Request body is nested more than ${MAX_BODY_DEPTH} levels deep`);
    return value as Record<string, unknown>;
  }
}
