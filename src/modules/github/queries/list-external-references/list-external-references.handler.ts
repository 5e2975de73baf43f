import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ExternalReferencesRepository } from '../../external-references.repository';
import { referenceResponse } from '../../github.mapper';
import type { ExternalReferenceListResponse } from '../../github.response';
import { ReferenceTargets } from '../../reference-targets.service';
import { ListExternalReferencesQuery } from './list-external-references.query';

/** Every reference linked to a readable issue or project (no `limit`/`offset`). */
@QueryHandler(ListExternalReferencesQuery)
export class ListExternalReferencesHandler implements IQueryHandler<ListExternalReferencesQuery, ExternalReferenceListResponse> {
  constructor(
    private readonly targets: ReferenceTargets,
    private readonly refs: ExternalReferencesRepository,
  ) {}

  async execute({ actor, targetType, targetId }: ListExternalReferencesQuery): Promise<ExternalReferenceListResponse> {
    await this.targets.read(actor, targetType, targetId);
    return { external_references: (await this.refs.listFor(actor.orgId, targetType, targetId)).map(referenceResponse) };
  }
}
