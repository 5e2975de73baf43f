import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Errors } from '../../../../common/errors/domain-error';
import { TemplateAccess } from '../../template-access';
import { isTemplateNameViolation, parseTemplateContent, parseTemplateName, templateNameTaken } from '../../template-input';
import { toTemplateResponse } from '../../templates.mapper';
import { TemplatesRepository } from '../../templates.repository';
import type { TemplateResponse } from '../../templates.response';
import { UpdateTemplateCommand } from './update-template.command';

/** Renames or rewrites a template the caller may manage; a template never changes scope (400 for `projectId`). */
@CommandHandler(UpdateTemplateCommand)
export class UpdateTemplateHandler implements ICommandHandler<UpdateTemplateCommand, TemplateResponse> {
  constructor(
    private readonly templates: TemplatesRepository,
    private readonly access: TemplateAccess,
  ) {}

  async execute({ actor, templateId, body }: UpdateTemplateCommand): Promise<TemplateResponse> {
    const t = await this.access.writable(actor, templateId);
    if ('projectId' in body || 'project_id' in body) throw Errors.validation('A template cannot move to another scope: create a new one');
    if (body.name === undefined && body.content === undefined) throw Errors.validation('Nothing to update: send name or content');
    if (body.name !== undefined) t.name = parseTemplateName(body.name);
    if (body.content !== undefined) t.content = parseTemplateContent(body.content);
    t.updated_at = new Date();
    let changed: number;
    try {
      changed = await this.templates.update(actor.orgId, t);
    } catch (e) {
      if (isTemplateNameViolation(e)) throw templateNameTaken(t.name);
      throw e;
    }
    if (!changed) throw Errors.notFound('Template not found');
    return toTemplateResponse(t);
  }
}
