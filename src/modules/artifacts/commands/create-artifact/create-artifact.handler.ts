import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { DomainEvents } from '../../../../common/events/domain-events';
import { Errors } from '../../../../common/errors/domain-error';
import { ArtifactAccess } from '../../artifact-access.service';
import { stageArtifactActivity, stageArtifactChanged } from '../../artifact-events';
import { linkConflict } from '../../artifact-errors';
import {
  artifactTitle,
  artifactType,
  contentFormat,
  type LinkTargetType,
  linkTargets,
  parseProjection,
  prepareContent,
  sourceLinkId,
} from '../../artifact-input';
import { ArtifactSources } from '../../artifact-sources.service';
import { toArtifactResponse, toRevisionResponse } from '../../artifacts.mapper';
import { ArtifactsRepository, type LinkRow } from '../../artifacts.repository';
import type { ArtifactWithRevisionEnvelope } from '../../artifacts.response';
import { CreateArtifactCommand } from './create-artifact.command';

/**
 * Creates an artifact, its revision 1 and its links in one transaction. Each link needs edit on
 * its target (unreadable: 404; view-only: 403); without links the caller must be a non-guest.
 */
@CommandHandler(CreateArtifactCommand)
export class CreateArtifactHandler implements ICommandHandler<CreateArtifactCommand, ArtifactWithRevisionEnvelope> {
  constructor(
    private readonly db: DataSource,
    private readonly artifacts: ArtifactsRepository,
    private readonly access: ArtifactAccess,
    private readonly sources: ArtifactSources,
    private readonly events: DomainEvents,
  ) {}

  async execute({ actor, dto, projection }: CreateArtifactCommand): Promise<ArtifactWithRevisionEnvelope> {
    const { sourceProvenance } = parseProjection(projection);
    const type = artifactType(dto.type);
    const title = artifactTitle(dto.title);
    if (dto.content === undefined || dto.content === null) throw Errors.validation('content is required', { field: 'content' });
    const wanted = linkTargets(dto.links);
    const sourceId = sourceLinkId(dto.source_external_reference_link_id);
    const content = prepareContent(dto.content, contentFormat(dto.content_format)); // before the transaction opens
    const targets: Array<{ type: LinkTargetType; id: string; projectId: string | null }> = [];
    for (const t of wanted) targets.push(await this.access.target(actor, t, 'edit'));
    if (!targets.length) await this.access.assertUnlinkedWrite(actor);
    const seen = new Set<string>();
    for (const t of targets) {
      const key = `${t.type}:${t.id}`;
      if (seen.has(key)) throw Errors.validation(`links names ${t.type} ${t.id} twice`, { field: 'links' });
      seen.add(key);
    }
    const source = sourceId ? await this.sources.resolve(actor, sourceId, targets) : null;

    const id = randomUUID();
    const revisionId = randomUUID();
    const at = new Date();
    await this.db.transaction(async (m) => {
      await this.artifacts.insertArtifact(actor.orgId, { id, type, title, revisionId, createdByMemberId: actor.memberId, at }, m);
      await this.artifacts.insertRevision(
        actor.orgId,
        {
          id: revisionId,
          artifactId: id,
          revisionNumber: 1,
          title,
          content: content.content,
          contentFormat: content.format,
          contentDigest: content.digest,
          source,
          createdByMemberId: actor.memberId,
          at,
        },
        m,
      );
      try {
        for (const t of targets)
          await this.artifacts.insertLink(
            actor.orgId,
            { id: randomUUID(), artifactId: id, artifactType: type, targetType: t.type, targetId: t.id, createdByMemberId: actor.memberId, at },
            m,
          );
      } catch (e) {
        throw linkConflict(e);
      }
      const links: Array<Pick<LinkRow, 'target_type' | 'target_id' | 'project_id'>> = targets.map((t) => ({
        target_type: t.type,
        target_id: t.id,
        project_id: t.projectId,
      }));
      await stageArtifactActivity(this.events, m, actor, 'artifact.created', { id, type, title }, links, { id: revisionId, revision_number: 1 });
      await stageArtifactChanged(
        this.events,
        m,
        actor,
        'created',
        { id, type, title, created_at: at, updated_at: at },
        {
          id: revisionId,
          artifact_id: id,
          revision_number: 1,
          title_snapshot: title,
          content_format: content.format,
          content_digest: content.digest,
          created_by: actor.memberId,
          created_at: at,
        },
        links,
      );
    });
    const [artifact, revision, links] = await Promise.all([
      this.artifacts.find(actor.orgId, id),
      this.artifacts.revision(actor.orgId, id, revisionId),
      this.artifacts.links(actor.orgId, [id]),
    ]);
    if (!artifact || !revision) throw Errors.notFound('Artifact not found');
    return {
      artifact: toArtifactResponse(artifact, await this.access.visible(actor, links)),
      revision: toRevisionResponse(revision, sourceProvenance ? await this.sources.projection(actor, revision) : undefined),
    };
  }
}
