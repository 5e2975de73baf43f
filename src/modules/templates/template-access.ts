import { Injectable } from '@nestjs/common';
import { AccessPolicyService } from '../../common/access/access-policy.service';
import type { Actor } from '../../common/auth/principal';
import { Errors } from '../../common/errors/domain-error';
import { isUuid } from '../../common/http/validation';
import { type TemplateRow, TemplatesRepository } from './templates.repository';

/** Finds a template the caller may read or change (rules: AccessPolicyService.templateLevel). */
@Injectable()
export class TemplateAccess {
  constructor(
    private readonly access: AccessPolicyService,
    private readonly templates: TemplatesRepository,
  ) {}

  /** The template, when the caller can read it; else 404 whether or not it exists. */
  async readable(actor: Actor, id: string): Promise<TemplateRow> {
    const t = isUuid(id) ? await this.templates.find(actor.orgId, id) : undefined;
    if (!t || !(await this.access.templateLevel(actor, t.project_id))) throw Errors.notFound('Template not found');
    return t;
  }

  /** The template, when the caller can change it: 404 when unreadable, 403 when readable only. */
  async writable(actor: Actor, id: string): Promise<TemplateRow> {
    const t = await this.readable(actor, id);
    await this.assertWrite(actor, t.project_id);
    return t;
  }

  /** May the caller write templates of this scope (a project it can read, or the organization)? */
  async assertWrite(actor: Actor, projectId: string | null): Promise<void> {
    if (projectId) {
      await this.access.assertProjectWrite(actor, projectId);
      return;
    }
    if ((await this.access.templateLevel(actor, null)) !== 'admin')
      throw Errors.forbidden('Only organization owners and admins can manage organization-wide templates');
  }
}
