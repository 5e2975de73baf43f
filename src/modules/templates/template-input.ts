import { Errors } from '../../common/errors/domain-error';
import { isUniqueViolation } from '../../common/errors/pg-errors';
import { cleanCommentBody } from '../comments/comment-body';

export const TEMPLATE_NAME_MAX = 200;

/** A template name: a string of 1..200 characters after trimming. */
export function parseTemplateName(v: unknown): string {
  if (typeof v !== 'string') throw Errors.validation('name must be a string');
  const name = v.trim();
  if (!name) throw Errors.validation('name is required');
  if ([...name].length > TEMPLATE_NAME_MAX) throw Errors.validation(`name must be at most ${TEMPLATE_NAME_MAX} characters`);
  return name;
}

/** Template content: Markdown/plain text or HTML, sanitized like a comment body (at most 100,000 characters, visible content required). */
export const parseTemplateContent = (v: unknown): string => cleanCommentBody(v, 'content');

export const templateNameTaken = (name: string) => Errors.conflict(`A template named "${name}" already exists in this scope`, 'template_name_taken');

/** The case-insensitive unique index on (org_id, scope, lower(name)) caught a lost race. */
export const isTemplateNameViolation = (e: unknown): boolean => isUniqueViolation(e, 'issue_templates_name_uq');
