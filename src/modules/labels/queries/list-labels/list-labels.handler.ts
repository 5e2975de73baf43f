import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { listResponse } from '../../../../common/http/list';
import { toLabelResponse } from '../../labels.mapper';
import { LabelsRepository } from '../../labels.repository';
import { ListLabelsQuery } from './list-labels.query';

/** Every label of the organization, by name; every member may read them (guests included). */
@QueryHandler(ListLabelsQuery)
export class ListLabelsHandler implements IQueryHandler<ListLabelsQuery, Record<string, unknown>> {
  constructor(private readonly labels: LabelsRepository) {}

  async execute({ actor, page }: ListLabelsQuery): Promise<Record<string, unknown>> {
    const [labels, total] = await Promise.all([this.labels.page(actor.orgId, page.limit, page.offset), this.labels.count(actor.orgId)]);
    return listResponse('labels', labels.map(toLabelResponse), total, page);
  }
}
