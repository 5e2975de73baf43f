import { Module } from '@nestjs/common';
import { CreateTemplateHandler } from './commands/create-template/create-template.handler';
import { DeleteTemplateHandler } from './commands/delete-template/delete-template.handler';
import { UpdateTemplateHandler } from './commands/update-template/update-template.handler';
import { ListTemplatesHandler } from './queries/list-templates/list-templates.handler';
import { TemplateAccess } from './template-access';
import { TemplatesController } from './templates.controller';
import { TemplatesRepository } from './templates.repository';

/**
 * Issue templates: reusable issue descriptions, of one project or of the whole organization.
 *
 * Access (AccessPolicyService.templateLevel):
 * - a project template: read with any access to its project, created, changed and deleted with
 *   edit or admin access (view-only: 403; unreadable project: 404);
 * - an organization-wide template: read by non-guests by effective live role; guests and
 *   project-scoped agents never see one (404 on a direct request); managed by owners and admins
 *   (members: 403).
 * Content is sanitized like a comment body; names are unique per scope in any letter case (409
 * `template_name_taken`). Issue create takes `templateId`: the template's content becomes the
 * description unless one is given (IssuesModule reads it through TemplatesRepository).
 */
@Module({
  controllers: [TemplatesController],
  providers: [TemplatesRepository, TemplateAccess, CreateTemplateHandler, UpdateTemplateHandler, DeleteTemplateHandler, ListTemplatesHandler],
  exports: [TemplatesRepository, TemplateAccess],
})
export class TemplatesModule {}
