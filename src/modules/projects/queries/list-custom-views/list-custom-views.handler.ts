import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { CustomViewsRepository } from '../../custom-views.repository';
import { toCustomViewResponse } from '../../projects.mapper';
import type { CustomViewListResponse } from '../../projects.response';
import { ListCustomViewsQuery } from './list-custom-views.query';

/** Default views first (in creation order), then the others oldest first. */
@QueryHandler(ListCustomViewsQuery)
export class ListCustomViewsHandler implements IQueryHandler<ListCustomViewsQuery> {
  constructor(
    private readonly views: CustomViewsRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, projectId }: ListCustomViewsQuery): Promise<CustomViewListResponse> {
    await this.access.assertProjectRead(actor, projectId);
    const rows = await this.views.list(actor.orgId, projectId);
    const views = rows.map(toCustomViewResponse);
    return { views, custom_views: views };
  }
}
