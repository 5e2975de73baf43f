import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Errors } from '../../../../common/errors/domain-error';
import { TemplateAccess } from '../../template-access';
import { TemplatesRepository } from '../../templates.repository';
import { DeleteTemplateCommand } from './delete-template.command';

/** Deletes a template the caller may manage; issues made from it keep their descriptions. */
@CommandHandler(DeleteTemplateCommand)
export class DeleteTemplateHandler implements ICommandHandler<DeleteTemplateCommand, void> {
  constructor(
    private readonly templates: TemplatesRepository,
    private readonly access: TemplateAccess,
  ) {}

  async execute({ actor, templateId }: DeleteTemplateCommand): Promise<void> {
    await this.access.writable(actor, templateId);
    if (!(await this.templates.delete(actor.orgId, templateId))) throw Errors.notFound('Template not found');
  }
}
