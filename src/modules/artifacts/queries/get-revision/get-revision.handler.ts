import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Errors } from '../../../../common/errors/domain-error';
import { isUuid } from '../../../../common/http/validation';
import { ArtifactAccess } from '../../artifact-access.service';
import { parseProjection } from '../../artifact-input';
import { ArtifactSources } from '../../artifact-sources.service';
import { toRevisionResponse } from '../../artifacts.mapper';
import { ArtifactsRepository } from '../../artifacts.repository';
import type { ArtifactRevisionEnvelope } from '../../artifacts.response';
import { GetRevisionQuery } from './get-revision.query';

/** One revision with its sanitized content; `projection=source_provenance_v1` adds `source_reference`. */
@QueryHandler(GetRevisionQuery)
export class GetRevisionHandler implements IQueryHandler<GetRevisionQuery, ArtifactRevisionEnvelope> {
  constructor(
    private readonly artifacts: ArtifactsRepository,
    private readonly access: ArtifactAccess,
    private readonly sources: ArtifactSources,
  ) {}

  async execute({ actor, artifactId, revisionId, projection }: GetRevisionQuery): Promise<ArtifactRevisionEnvelope> {
    const { sourceProvenance } = parseProjection(projection);
    await this.access.read(actor, artifactId);
    const r = isUuid(revisionId) ? await this.artifacts.revision(actor.orgId, artifactId, revisionId.toLowerCase()) : undefined;
    if (!r) throw Errors.notFound('Revision not found');
    return { revision: toRevisionResponse(r, sourceProvenance ? await this.sources.projection(actor, r) : undefined) };
  }
}
