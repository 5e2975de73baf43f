import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { DomainError, Errors } from '../../../../common/errors/domain-error';
import { DomainEvents } from '../../../../common/events/domain-events';
import { isUuid } from '../../../../common/http/validation';
import { ArtifactAccess } from '../../artifact-access.service';
import { stageArtifactActivity, stageArtifactChanged } from '../../artifact-events';
import { artifactTitle, contentFormat, parseProjection, prepareContent, type SourceSnapshot, sourceLinkId } from '../../artifact-input';
import { ArtifactSources } from '../../artifact-sources.service';
import { toArtifactResponse, toRevisionResponse } from '../../artifacts.mapper';
import { ArtifactsRepository, type RevisionRow } from '../../artifacts.repository';
import type { ArtifactWithRevisionEnvelope } from '../../artifacts.response';
import { CreateRevisionCommand } from './create-revision.command';

const stale = (current: { current_revision_id: string; current_revision_number: number }) =>
  new DomainError(409, 'CONFLICT', 'The artifact has a newer revision: read it again before retrying', {
    current_revision_id: current.current_revision_id,
    current_revision_number: current.current_revision_number,
  });

const snapshotOf = (r: RevisionRow): SourceSnapshot | null =>
  r.source_link_id
    ? {
        linkId: r.source_link_id,
        externalReferenceId: r.source_external_reference_id!,
        targetType: r.source_target_type!,
        targetId: r.source_target_id!,
        canonicalUrl: r.source_canonical_url!,
        provider: r.source_provider!,
        objectType: r.source_object_type!,
        provenance: r.source_provenance!,
        label: r.source_label,
      }
    : null;

/**
 * Revises an artifact (edit on every link target; 404 unreadable, 403 otherwise). The writer names
 * the exact current revision (`expected_revision_id` or `expected_revision_number`); the artifact
 * row is locked, so of concurrent writers naming the same revision exactly one wins and the others
 * get 409 `CONFLICT`. Omitted content (and its format) and an omitted source are carried forward
 * from the current revision under that lock; a revision equal to the current one (title, content
 * digest and source) is 409 `unchanged_revision`.
 */
@CommandHandler(CreateRevisionCommand)
export class CreateRevisionHandler implements ICommandHandler<CreateRevisionCommand, ArtifactWithRevisionEnvelope> {
  constructor(
    private readonly db: DataSource,
    private readonly artifacts: ArtifactsRepository,
    private readonly access: ArtifactAccess,
    private readonly sources: ArtifactSources,
    private readonly events: DomainEvents,
  ) {}

  async execute({ actor, artifactId, dto, projection }: CreateRevisionCommand): Promise<ArtifactWithRevisionEnvelope> {
    const { sourceProvenance } = parseProjection(projection);
    const { artifact, links } = await this.access.write(actor, artifactId);
    const expectedId = dto.expected_revision_id;
    const expectedNumber = dto.expected_revision_number;
    if (expectedId === undefined && expectedNumber === undefined)
      throw Errors.validation('expected_revision_id or expected_revision_number is required', { field: 'expected_revision_id' });
    if (expectedId !== undefined && !isUuid(expectedId)) throw Errors.validation('expected_revision_id must be a UUID', { field: 'expected_revision_id' });
    if (expectedNumber !== undefined && (typeof expectedNumber !== 'number' || !Number.isInteger(expectedNumber) || expectedNumber < 1))
      throw Errors.validation('expected_revision_number must be a positive integer', { field: 'expected_revision_number' });
    const title = dto.title === undefined ? undefined : artifactTitle(dto.title);
    const format = contentFormat(dto.content_format);
    if (dto.content === null) throw Errors.validation('content must be a string; omit it to keep the current content', { field: 'content' });
    if (format && dto.content === undefined) throw Errors.validation('content_format needs content', { field: 'content_format' });
    const content = dto.content === undefined ? undefined : prepareContent(dto.content, format); // before the transaction opens
    const sourceId = sourceLinkId(dto.source_external_reference_link_id);
    const targets = links.map((l) => ({ type: l.target_type, id: l.target_id }));
    // undefined: inherit, null: clear
    const newSource: SourceSnapshot | null | undefined = sourceId ? await this.sources.resolve(actor, sourceId, targets) : (sourceId as null | undefined);

    const revisionId = randomUUID();
    const at = new Date();
    await this.db.transaction(async (m) => {
      const current = await this.artifacts.lock(actor.orgId, artifactId, m);
      if (!current) throw Errors.notFound('Artifact not found');
      if (
        (expectedId !== undefined && expectedId.toLowerCase() !== current.current_revision_id) ||
        (expectedNumber !== undefined && expectedNumber !== current.current_revision_number)
      )
        throw stale(current);
      const prev = await this.artifacts.revision(actor.orgId, artifactId, current.current_revision_id, m);
      if (!prev) throw Errors.notFound('Artifact not found');
      const next = {
        title: title ?? prev.title_snapshot,
        content: content?.content ?? prev.content,
        format: content?.format ?? prev.content_format,
        digest: content?.digest ?? prev.content_digest,
        source: newSource === undefined ? snapshotOf(prev) : newSource,
      };
      if (next.title === prev.title_snapshot && next.digest === prev.content_digest && (next.source?.linkId ?? null) === prev.source_link_id)
        throw Errors.conflict('The revision is identical to the current one (title, content and source)', 'unchanged_revision', {
          current_revision_id: current.current_revision_id,
        });
      const number = current.current_revision_number + 1;
      await this.artifacts.insertRevision(
        actor.orgId,
        {
          id: revisionId,
          artifactId,
          revisionNumber: number,
          title: next.title,
          content: next.content,
          contentFormat: next.format,
          contentDigest: next.digest,
          source: next.source,
          createdByMemberId: actor.memberId,
          at,
        },
        m,
      );
      if (!(await this.artifacts.advance(actor.orgId, artifactId, current.current_revision_number, { id: revisionId, title: next.title, at }, m)))
        throw stale(current);
      const live = await this.artifacts.links(actor.orgId, [artifactId], m);
      const a = { id: artifactId, type: artifact.type, title: next.title };
      await stageArtifactActivity(this.events, m, actor, 'artifact.revised', a, live, { id: revisionId, revision_number: number });
      await stageArtifactChanged(
        this.events,
        m,
        actor,
        'revised',
        { ...a, created_at: artifact.created_at, updated_at: at },
        {
          id: revisionId,
          artifact_id: artifactId,
          revision_number: number,
          title_snapshot: next.title,
          content_format: next.format,
          content_digest: next.digest,
          created_by: actor.memberId,
          created_at: at,
        },
        live,
      );
    });
    const [updated, revision, all] = await Promise.all([
      this.artifacts.find(actor.orgId, artifactId),
      this.artifacts.revision(actor.orgId, artifactId, revisionId),
      this.artifacts.links(actor.orgId, [artifactId]),
    ]);
    if (!updated || !revision) throw Errors.notFound('Artifact not found');
    return {
      artifact: toArtifactResponse(updated, await this.access.visible(actor, all)),
      revision: toRevisionResponse(revision, sourceProvenance ? await this.sources.projection(actor, revision) : undefined),
    };
  }
}
