import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { CustomViewEntity } from '../../entities/custom-view.entity';
import { toCustomViewResponse } from '../../projects.mapper';
import type { CustomViewListResponse } from '../../projects.response';
import { ListCustomViewsQuery } from './list-custom-views.query';

/** Default views first (in creation order), then the others oldest first. */
@QueryHandler(ListCustomViewsQuery)
export class ListCustomViewsHandler implements IQueryHandler<ListCustomViewsQuery> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, projectId }: ListCustomViewsQuery): Promise<CustomViewListResponse> {
    await this.access.assertProjectRead(actor, projectId);
    const rows = await this.db.manager.find(CustomViewEntity, {
      where: { orgId: actor.orgId, projectId },
      order: { isDefault: 'DESC', createdAt: 'ASC', id: 'ASC' },
    });
    const views = rows.map(toCustomViewResponse);
    return { views, custom_views: views };
  }
}
