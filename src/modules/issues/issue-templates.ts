import { Injectable } from '@nestjs/common';
import type { Actor } from '../../common/auth/principal';
import { DomainError } from '../../common/errors/domain-error';
import { TemplateAccess } from '../templates/template-access';
import type { ParsedIssueFields } from './issue-input';

/**
 * `templateId` of issue create and bulk create: the template must be readable by the caller (404
 * otherwise) and organization-wide or of the issue's own project (400 `template_project_mismatch`);
 * its sanitized content becomes the description unless the request gives one (null included).
 */
@Injectable()
export class IssueTemplates {
  constructor(private readonly templates: TemplateAccess) {}

  async apply(actor: Actor, items: ParsedIssueFields[]): Promise<void> {
    const ids = [...new Set(items.map((f) => f.templateId).filter((id): id is string => !!id))];
    if (!ids.length) return;
    const found = new Map(await Promise.all(ids.map(async (id) => [id, await this.templates.readable(actor, id)] as const)));
    for (const f of items) {
      if (!f.templateId) continue;
      const t = found.get(f.templateId)!;
      if (t.project_id !== null && t.project_id !== (f.projectId ?? null)) {
        throw new DomainError(
          400,
          'template_project_mismatch',
          "templateId names a template of another project: use one of the issue's project or an organization-wide one",
        );
      }
      if (f.description === undefined) f.description = t.content;
    }
  }
}
