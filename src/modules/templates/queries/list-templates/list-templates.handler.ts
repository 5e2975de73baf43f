import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { listResponse } from '../../../../common/http/list';
import { isUuid } from '../../../../common/http/validation';
import { toTemplateResponse } from '../../templates.mapper';
import { TemplatesRepository } from '../../templates.repository';
import { ListTemplatesQuery } from './list-templates.query';

/**
 * The templates the caller can read, by name: organization-wide ones (non-guests) and those of
 * readable projects. With `projectId` (a readable project, else 404): that project's templates and
 * the organization-wide ones, i.e. what an issue of that project can be created from.
 */
@QueryHandler(ListTemplatesQuery)
export class ListTemplatesHandler implements IQueryHandler<ListTemplatesQuery, Record<string, unknown>> {
  constructor(
    private readonly templates: TemplatesRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, projectId, page }: ListTemplatesQuery): Promise<Record<string, unknown>> {
    if (projectId !== undefined && !isUuid(projectId)) throw Errors.validation('projectId must be a UUID');
    const orgWide = (await this.access.templateLevel(actor, null)) !== null;
    let projects: 'all' | string[];
    if (projectId !== undefined) {
      await this.access.assertProjectRead(actor, projectId);
      projects = [projectId];
    } else {
      projects = await this.access.readableProjects(actor);
    }
    const { rows, total } = await this.templates.page(actor.orgId, { orgWide, projects }, page.limit, page.offset);
    return listResponse('templates', rows.map(toTemplateResponse), total, page);
  }
}
