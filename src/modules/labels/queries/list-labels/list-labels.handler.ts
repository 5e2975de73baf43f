import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { listResponse } from '../../../../common/http/list';
import { LabelEntity } from '../../entities/label.entity';
import { toLabelResponse } from '../../labels.mapper';
import { ListLabelsQuery } from './list-labels.query';

/** Every label of the organization, by name; every member may read them (guests included). */
@QueryHandler(ListLabelsQuery)
export class ListLabelsHandler implements IQueryHandler<ListLabelsQuery, Record<string, unknown>> {
  constructor(private readonly db: DataSource) {}

  async execute({ actor, page }: ListLabelsQuery): Promise<Record<string, unknown>> {
    const [labels, total] = await this.db
      .getRepository(LabelEntity)
      .createQueryBuilder('l')
      .where('l.orgId = :orgId', { orgId: actor.orgId })
      .orderBy('lower(l.name)', 'ASC')
      .addOrderBy('l.id', 'ASC')
      .take(page.limit)
      .skip(page.offset)
      .getManyAndCount();
    return listResponse('labels', labels.map(toLabelResponse), total, page);
  }
}
