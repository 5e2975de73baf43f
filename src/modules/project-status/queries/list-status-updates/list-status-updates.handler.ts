import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { listResponse } from '../../../../common/http/list';
import { isUuid } from '../../../../common/http/validation';
import { toStatusUpdateResponse } from '../../project-status.mapper';
import { ProjectStatusRepository } from '../../project-status.repository';
import { ListStatusUpdatesQuery } from './list-status-updates.query';

/** A project's status updates, newest first (any access to the project; else 404). */
@QueryHandler(ListStatusUpdatesQuery)
export class ListStatusUpdatesHandler implements IQueryHandler<ListStatusUpdatesQuery, Record<string, unknown>> {
  constructor(
    private readonly access: AccessPolicyService,
    private readonly updates: ProjectStatusRepository,
  ) {}

  async execute({ actor, projectId, page }: ListStatusUpdatesQuery): Promise<Record<string, unknown>> {
    if (!isUuid(projectId)) throw Errors.notFound('Project not found');
    await this.access.assertProjectRead(actor, projectId);
    const { rows, total } = await this.updates.page(actor.orgId, projectId, page.limit, page.offset);
    return listResponse('status_updates', rows.map(toStatusUpdateResponse), total, page);
  }
}
