import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Errors } from '../../../../common/errors/domain-error';
import { isUuid } from '../../../../common/http/validation';
import { TemplateAccess } from '../../template-access';
import { isTemplateNameViolation, parseTemplateContent, parseTemplateName, templateNameTaken } from '../../template-input';
import { toTemplateResponse } from '../../templates.mapper';
import { type TemplateRow, TemplatesRepository } from '../../templates.repository';
import type { TemplateResponse } from '../../templates.response';
import { CreateTemplateCommand } from './create-template.command';

/** A project template (edit access to the project) or an organization-wide one (owners and admins). */
@CommandHandler(CreateTemplateCommand)
export class CreateTemplateHandler implements ICommandHandler<CreateTemplateCommand, TemplateResponse> {
  constructor(
    private readonly templates: TemplatesRepository,
    private readonly access: TemplateAccess,
  ) {}

  async execute({ actor, body }: CreateTemplateCommand): Promise<TemplateResponse> {
    const rawProject = body.projectId !== undefined ? body.projectId : body.project_id;
    if (rawProject !== undefined && rawProject !== null && !isUuid(rawProject)) throw Errors.validation('projectId must be a UUID or null');
    const projectId = (rawProject as string | null | undefined) ?? null;
    await this.access.assertWrite(actor, projectId);
    const now = new Date();
    const t: TemplateRow = {
      id: randomUUID(),
      project_id: projectId,
      name: parseTemplateName(body.name),
      content: parseTemplateContent(body.content),
      created_by_member_id: actor.isAutomation ? null : actor.memberId,
      created_at: now,
      updated_at: now,
    };
    try {
      await this.templates.insert(actor.orgId, t);
    } catch (e) {
      if (isTemplateNameViolation(e)) throw templateNameTaken(t.name);
      throw e;
    }
    return toTemplateResponse(t);
  }
}
