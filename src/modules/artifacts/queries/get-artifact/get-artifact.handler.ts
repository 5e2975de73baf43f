import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ArtifactAccess } from '../../artifact-access.service';
import { toArtifactResponse } from '../../artifacts.mapper';
import type { ArtifactEnvelope } from '../../artifacts.response';
import { GetArtifactQuery } from './get-artifact.query';

/** Artifact metadata and the links the caller can see (404 when unreadable). */
@QueryHandler(GetArtifactQuery)
export class GetArtifactHandler implements IQueryHandler<GetArtifactQuery, ArtifactEnvelope> {
  constructor(private readonly access: ArtifactAccess) {}

  async execute({ actor, artifactId }: GetArtifactQuery): Promise<ArtifactEnvelope> {
    const { artifact, visibleLinks } = await this.access.read(actor, artifactId);
    return { artifact: toArtifactResponse(artifact, visibleLinks) };
  }
}
