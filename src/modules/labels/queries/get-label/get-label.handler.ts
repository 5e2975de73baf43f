import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { Errors } from '../../../../common/errors/domain-error';
import { LabelEntity } from '../../entities/label.entity';
import { toLabelResponse } from '../../labels.mapper';
import type { LabelResponse } from '../../labels.response';
import { GetLabelQuery } from './get-label.query';

@QueryHandler(GetLabelQuery)
export class GetLabelHandler implements IQueryHandler<GetLabelQuery, LabelResponse> {
  constructor(private readonly db: DataSource) {}

  async execute({ actor, labelId }: GetLabelQuery): Promise<LabelResponse> {
    const label = await this.db.getRepository(LabelEntity).findOneBy({ orgId: actor.orgId, id: labelId });
    if (!label) throw Errors.notFound('Label not found');
    return toLabelResponse(label);
  }
}
