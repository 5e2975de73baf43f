import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Errors } from '../../../../common/errors/domain-error';
import { toLabelResponse } from '../../labels.mapper';
import { LabelsRepository } from '../../labels.repository';
import type { LabelResponse } from '../../labels.response';
import { GetLabelQuery } from './get-label.query';

@QueryHandler(GetLabelQuery)
export class GetLabelHandler implements IQueryHandler<GetLabelQuery, LabelResponse> {
  constructor(private readonly labels: LabelsRepository) {}

  async execute({ actor, labelId }: GetLabelQuery): Promise<LabelResponse> {
    const label = await this.labels.find(actor.orgId, labelId);
    if (!label) throw Errors.notFound('Label not found');
    return toLabelResponse(label);
  }
}
