import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Errors } from '../../../../common/errors/domain-error';
import { ArtifactAccess } from '../../artifact-access.service';
import { linkTarget } from '../../artifact-input';
import { toArtifactResponse } from '../../artifacts.mapper';
import { ArtifactsRepository, type LinkRow } from '../../artifacts.repository';
import type { ArtifactListResponse } from '../../artifacts.response';
import { artifactPage } from '../paging';
import { ListArtifactsQuery } from './list-artifacts.query';

/**
 * Readable artifacts, most recently changed first, without content; optional `target_type` with
 * `target_id` (a readable issue in any reference form, or project; otherwise 404). `hasMore` tells
 * whether another page exists.
 */
@QueryHandler(ListArtifactsQuery)
export class ListArtifactsHandler implements IQueryHandler<ListArtifactsQuery, ArtifactListResponse> {
  constructor(
    private readonly artifacts: ArtifactsRepository,
    private readonly access: ArtifactAccess,
  ) {}

  async execute({ actor, query }: ListArtifactsQuery): Promise<ArtifactListResponse> {
    const { limit, offset } = artifactPage(query);
    const q = { target_type: query.target_type ?? query.targetType, target_id: query.target_id ?? query.targetId };
    if ((q.target_type === undefined) !== (q.target_id === undefined)) throw Errors.validation('target_type and target_id go together');
    const target = q.target_type === undefined ? undefined : await this.access.target(actor, linkTarget(q, 'query'));
    const readable = await this.access.readableProjects(actor);
    const rows = await this.artifacts.list(actor.orgId, { readable, target: target && { type: target.type, id: target.id } }, limit + 1, offset);
    const page = rows.slice(0, limit);
    const links = await this.access.visible(
      actor,
      await this.artifacts.links(
        actor.orgId,
        page.map((a) => a.id),
      ),
    );
    const byArtifact = new Map<string, LinkRow[]>();
    for (const l of links) byArtifact.set(l.artifact_id, [...(byArtifact.get(l.artifact_id) ?? []), l]);
    return {
      artifacts: page.map((a) => toArtifactResponse(a, byArtifact.get(a.id) ?? [])),
      limit,
      offset,
      hasMore: rows.length > limit,
    };
  }
}
