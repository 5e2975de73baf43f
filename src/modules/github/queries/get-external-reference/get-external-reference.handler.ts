import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Errors } from '../../../../common/errors/domain-error';
import { ExternalReferencesRepository } from '../../external-references.repository';
import { referenceResponse } from '../../github.mapper';
import type { ExternalReferenceEnvelope } from '../../github.response';
import { ReferenceTargets } from '../../reference-targets.service';
import { GetExternalReferenceQuery } from './get-external-reference.query';

/** One linked reference of a readable target. */
@QueryHandler(GetExternalReferenceQuery)
export class GetExternalReferenceHandler implements IQueryHandler<GetExternalReferenceQuery, ExternalReferenceEnvelope> {
  constructor(
    private readonly targets: ReferenceTargets,
    private readonly refs: ExternalReferencesRepository,
  ) {}

  async execute({ actor, targetType, targetId, referenceId }: GetExternalReferenceQuery): Promise<ExternalReferenceEnvelope> {
    await this.targets.read(actor, targetType, targetId);
    const row = await this.refs.getFor(actor.orgId, targetType, targetId, referenceId);
    if (!row) throw Errors.notFound('External reference not found');
    return { external_reference: referenceResponse(row) };
  }
}
