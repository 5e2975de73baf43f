import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { listResponse, parsePage } from '../../../../common/http/list';
import { ProjectsRepository } from '../../projects.repository';
import { toProjectResponse } from '../../projects.mapper';
import { ListProjectsQuery } from './list-projects.query';

/** Projects the caller can read (guests: only their explicit ones), oldest first. */
@QueryHandler(ListProjectsQuery)
export class ListProjectsHandler implements IQueryHandler<ListProjectsQuery> {
  constructor(
    private readonly projects: ProjectsRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, query }: ListProjectsQuery): Promise<Record<string, unknown>> {
    const page = parsePage(query);
    const status = query.status;
    if (status !== undefined && status !== 'active' && status !== 'archived') throw Errors.validation('status must be active or archived');
    const readable = await this.access.readableProjects(actor);
    if (readable !== 'all' && readable.length === 0) return listResponse('projects', [], 0, page);
    const { rows, total } = await this.projects.list(actor.orgId, { ids: readable, status }, page);
    const items = [];
    for (const p of rows) items.push(toProjectResponse(p, (await this.access.levelFor(actor, p.id)) ?? 'view'));
    return listResponse('projects', items, total, page);
  }
}
