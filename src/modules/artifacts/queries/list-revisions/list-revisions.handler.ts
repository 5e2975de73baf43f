import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ArtifactAccess } from '../../artifact-access.service';
import { toRevisionSummary } from '../../artifacts.mapper';
import { ArtifactsRepository } from '../../artifacts.repository';
import type { ArtifactRevisionListResponse } from '../../artifacts.response';
import { artifactPage } from '../paging';
import { ListRevisionsQuery } from './list-revisions.query';

/** Revision history, newest first, summaries without content, with `hasMore` (404 when unreadable). */
@QueryHandler(ListRevisionsQuery)
export class ListRevisionsHandler implements IQueryHandler<ListRevisionsQuery, ArtifactRevisionListResponse> {
  constructor(
    private readonly artifacts: ArtifactsRepository,
    private readonly access: ArtifactAccess,
  ) {}

  async execute({ actor, artifactId, query }: ListRevisionsQuery): Promise<ArtifactRevisionListResponse> {
    const { limit, offset } = artifactPage(query);
    await this.access.read(actor, artifactId);
    const rows = await this.artifacts.revisions(actor.orgId, artifactId, limit + 1, offset);
    return { revisions: rows.slice(0, limit).map(toRevisionSummary), limit, offset, hasMore: rows.length > limit };
  }
}
