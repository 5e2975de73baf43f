import { Injectable } from '@nestjs/common';
import { Sql, type Tx } from '../../database/sql.service';
import type { ArtifactType, ContentFormat, LinkTargetType, SourceSnapshot } from './artifact-input';

/** An artifact as responses show it; `created_by` is null once that member was removed. */
export interface ArtifactRow {
  id: string;
  org_id: string;
  type: ArtifactType;
  title: string;
  current_revision_id: string;
  revision_number: number;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A link with the project its target belongs to (an issue's project; null for a projectless issue). */
export interface LinkRow {
  id: string;
  artifact_id: string;
  artifact_type: ArtifactType;
  target_type: LinkTargetType;
  target_id: string;
  project_id: string | null;
  created_by: string | null;
  created_at: Date;
}

/** A revision without its content (history). */
export interface RevisionSummaryRow {
  id: string;
  artifact_id: string;
  revision_number: number;
  title_snapshot: string;
  content_format: ContentFormat;
  content_digest: string;
  created_by: string | null;
  created_at: Date;
}

/** A revision with its content and source snapshot. */
export interface RevisionRow extends RevisionSummaryRow {
  content: string;
  source_link_id: string | null;
  source_external_reference_id: string | null;
  source_target_type: LinkTargetType | null;
  source_target_id: string | null;
  source_canonical_url: string | null;
  source_provider: string | null;
  source_object_type: string | null;
  source_provenance: string | null;
  source_label: string | null;
}

export interface NewArtifact {
  id: string;
  type: ArtifactType;
  title: string;
  revisionId: string;
  createdByMemberId: string | null;
  at: Date;
}

export interface NewRevision {
  id: string;
  artifactId: string;
  revisionNumber: number;
  title: string;
  content: string;
  contentFormat: ContentFormat;
  contentDigest: string;
  source: SourceSnapshot | null;
  createdByMemberId: string | null;
  at: Date;
}

export interface NewLink {
  id: string;
  artifactId: string;
  artifactType: ArtifactType;
  targetType: LinkTargetType;
  targetId: string;
  createdByMemberId: string | null;
  at: Date;
}

/** What the artifact list is filtered by: readable projects ('all' = everything of the organization) and one target. */
export interface ArtifactListFilter {
  readable: 'all' | string[];
  target?: { type: LinkTargetType; id: string };
}

/** Provenance columns read as null once the member is removed. */
const BY = (alias: string) => `CASE WHEN ${alias}_m.removed_at IS NULL THEN ${alias}.created_by_member_id END AS created_by`;
const MEMBER = (alias: string) => `LEFT JOIN members ${alias}_m ON ${alias}_m.org_id = ${alias}.org_id AND ${alias}_m.id = ${alias}.created_by_member_id`;

const ARTIFACT_SELECT = `SELECT a.id, a.org_id, a.type, a.title, a.current_revision_id, a.current_revision_number AS revision_number,
    ${BY('a')}, a.created_at, a.updated_at
  FROM artifacts a ${MEMBER('a')}`;

const SUMMARY_COLUMNS = `r.id, r.artifact_id, r.revision_number, r.title_snapshot, r.content_format, r.content_digest, ${BY('r')}, r.created_at`;

const LINK_SELECT = `SELECT l.id, l.artifact_id, l.artifact_type, l.target_type, COALESCE(l.issue_id, l.project_id) AS target_id,
    CASE WHEN l.target_type = 'project' THEN l.project_id ELSE i.project_id END AS project_id, ${BY('l')}, l.created_at
  FROM artifact_links l
  LEFT JOIN issues i ON i.org_id = l.org_id AND i.id = l.issue_id
  ${MEMBER('l')}`;

/** Artifacts, their immutable revisions and their links (tables artifacts, artifact_revisions, artifact_links). */
@Injectable()
export class ArtifactsRepository {
  constructor(private readonly sql: Sql) {}

  find(orgId: string, id: string, m?: Tx): Promise<ArtifactRow | undefined> {
    return this.sql.row<ArtifactRow>(`${ARTIFACT_SELECT} WHERE a.org_id = $1 AND a.id = $2`, [orgId, id], m);
  }

  /** Locks the artifact row for the rest of m's transaction (revisions and final-link removal are serialized per artifact). */
  lock(orgId: string, id: string, m: Tx): Promise<{ current_revision_id: string; current_revision_number: number } | undefined> {
    return this.sql.row(`SELECT current_revision_id, current_revision_number FROM artifacts WHERE org_id = $1 AND id = $2 FOR UPDATE`, [orgId, id], m);
  }

  /** Artifacts the filter lets through, most recently changed first; `limit` rows from `offset`. */
  list(orgId: string, f: ArtifactListFilter, limit: number, offset: number): Promise<ArtifactRow[]> {
    return this.sql.planned<ArtifactRow>(
      `${ARTIFACT_SELECT}
        WHERE a.org_id = $1
          AND ($2::boolean OR EXISTS (
                SELECT 1 FROM artifact_links l LEFT JOIN issues i ON i.org_id = l.org_id AND i.id = l.issue_id
                 WHERE l.org_id = a.org_id AND l.artifact_id = a.id AND COALESCE(l.project_id, i.project_id) = ANY($3::uuid[])))
          AND ($4::text IS NULL OR EXISTS (
                SELECT 1 FROM artifact_links t
                 WHERE t.org_id = a.org_id AND t.artifact_id = a.id
                   AND (($4 = 'issue' AND t.issue_id = $5::uuid) OR ($4 = 'project' AND t.project_id = $5::uuid))))
        ORDER BY a.updated_at DESC, a.id DESC
        LIMIT $6 OFFSET $7`,
      [orgId, f.readable === 'all', f.readable === 'all' ? [] : f.readable, f.target?.type ?? null, f.target?.id ?? null, limit, offset],
    );
  }

  /** Links of the given artifacts, oldest first. */
  links(orgId: string, artifactIds: string[], m?: Tx): Promise<LinkRow[]> {
    if (!artifactIds.length) return Promise.resolve([]);
    return this.sql.rows<LinkRow>(
      `${LINK_SELECT} WHERE l.org_id = $1 AND l.artifact_id = ANY($2::uuid[]) ORDER BY l.created_at, l.id`,
      [orgId, artifactIds],
      m,
    );
  }

  /** Summaries of an artifact's revisions, newest first. */
  revisions(orgId: string, artifactId: string, limit: number, offset: number): Promise<RevisionSummaryRow[]> {
    return this.sql.rows<RevisionSummaryRow>(
      `SELECT ${SUMMARY_COLUMNS} FROM artifact_revisions r ${MEMBER('r')}
        WHERE r.org_id = $1 AND r.artifact_id = $2 ORDER BY r.revision_number DESC LIMIT $3 OFFSET $4`,
      [orgId, artifactId, limit, offset],
    );
  }

  /** One revision of the artifact with its content, or undefined. */
  revision(orgId: string, artifactId: string, revisionId: string, m?: Tx): Promise<RevisionRow | undefined> {
    return this.sql.row<RevisionRow>(
      `SELECT ${SUMMARY_COLUMNS}, r.content, r.source_link_id, r.source_external_reference_id, r.source_target_type, r.source_target_id,
              r.source_canonical_url, r.source_provider, r.source_object_type, r.source_provenance, r.source_label
         FROM artifact_revisions r ${MEMBER('r')}
        WHERE r.org_id = $1 AND r.artifact_id = $2 AND r.id = $3`,
      [orgId, artifactId, revisionId],
      m,
    );
  }

  /** Stores a new artifact; its first revision must follow in the same transaction (deferred pointer key). */
  async insertArtifact(orgId: string, a: NewArtifact, m: Tx): Promise<void> {
    await this.sql.run(
      `INSERT INTO artifacts (org_id, id, type, title, current_revision_id, current_revision_number, created_by_member_id, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, 1, $6, $7, $7)`,
      [orgId, a.id, a.type, a.title, a.revisionId, a.createdByMemberId, a.at],
      m,
    );
  }

  async insertRevision(orgId: string, r: NewRevision, m: Tx): Promise<void> {
    const s = r.source;
    await this.sql.run(
      `INSERT INTO artifact_revisions (org_id, id, artifact_id, revision_number, title_snapshot, content, content_format, content_digest,
         source_link_id, source_external_reference_id, source_target_type, source_target_id, source_canonical_url, source_provider,
         source_object_type, source_provenance, source_label, created_by_member_id, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)`,
      [
        orgId,
        r.id,
        r.artifactId,
        r.revisionNumber,
        r.title,
        r.content,
        r.contentFormat,
        r.contentDigest,
        s?.linkId ?? null,
        s?.externalReferenceId ?? null,
        s?.targetType ?? null,
        s?.targetId ?? null,
        s?.canonicalUrl ?? null,
        s?.provider ?? null,
        s?.objectType ?? null,
        s?.provenance ?? null,
        s?.label ?? null,
        r.createdByMemberId,
        r.at,
      ],
      m,
    );
  }

  /** Moves the current pointer to the next revision, fenced by the number it was at (answers whether it moved). */
  async advance(orgId: string, id: string, fromNumber: number, r: { id: string; title: string; at: Date }, m: Tx): Promise<boolean> {
    return (
      (await this.sql.run(
        `UPDATE artifacts SET current_revision_id = $4, current_revision_number = $3 + 1, title = $5, updated_at = $6
          WHERE org_id = $1 AND id = $2 AND current_revision_number = $3`,
        [orgId, id, fromNumber, r.id, r.title, r.at],
        m,
      )) === 1
    );
  }

  async insertLink(orgId: string, l: NewLink, m: Tx): Promise<void> {
    await this.sql.run(
      `INSERT INTO artifact_links (org_id, id, artifact_id, artifact_type, target_type, issue_id, project_id, created_by_member_id, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        orgId,
        l.id,
        l.artifactId,
        l.artifactType,
        l.targetType,
        l.targetType === 'issue' ? l.targetId : null,
        l.targetType === 'project' ? l.targetId : null,
        l.createdByMemberId,
        l.at,
      ],
      m,
    );
  }

  /** Marks the artifact changed (a link was added or removed). */
  async touch(orgId: string, id: string, at: Date, m: Tx): Promise<void> {
    await this.sql.run('UPDATE artifacts SET updated_at = $3 WHERE org_id = $1 AND id = $2', [orgId, id, at], m);
  }

  async countLinks(orgId: string, artifactId: string, m: Tx): Promise<number> {
    return (await this.sql.row<{ n: number }>('SELECT count(*)::int AS n FROM artifact_links WHERE org_id = $1 AND artifact_id = $2', [orgId, artifactId], m))!
      .n;
  }

  async deleteLink(orgId: string, artifactId: string, linkId: string, m: Tx): Promise<number> {
    return this.sql.run('DELETE FROM artifact_links WHERE org_id = $1 AND artifact_id = $2 AND id = $3', [orgId, artifactId, linkId], m);
  }
}
