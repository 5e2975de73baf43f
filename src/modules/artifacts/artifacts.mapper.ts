import type { ArtifactRow, LinkRow, RevisionRow, RevisionSummaryRow } from './artifacts.repository';
import type {
  ArtifactLinkResponse,
  ArtifactResponse,
  ArtifactRevisionResponse,
  ArtifactRevisionSummaryResponse,
  ArtifactSourceReferenceResponse,
} from './artifacts.response';

const iso = (d: Date | string) => new Date(d).toISOString();

export const toLinkResponse = (l: LinkRow): ArtifactLinkResponse => ({
  id: l.id,
  artifact_id: l.artifact_id,
  artifact_type: l.artifact_type,
  target_type: l.target_type,
  target_id: l.target_id,
  created_by: l.created_by ?? null,
  created_at: iso(l.created_at),
});

export const toArtifactResponse = (a: ArtifactRow, links: LinkRow[]): ArtifactResponse => ({
  id: a.id,
  org_id: a.org_id,
  type: a.type,
  title: a.title,
  current_revision_id: a.current_revision_id,
  revision_number: a.revision_number,
  created_by: a.created_by ?? null,
  created_at: iso(a.created_at),
  updated_at: iso(a.updated_at),
  links: links.map(toLinkResponse),
});

export const toRevisionSummary = (r: RevisionSummaryRow): ArtifactRevisionSummaryResponse => ({
  id: r.id,
  artifact_id: r.artifact_id,
  revision_number: r.revision_number,
  title_snapshot: r.title_snapshot,
  content_format: r.content_format,
  content_digest: r.content_digest,
  created_by: r.created_by ?? null,
  created_at: iso(r.created_at),
});

/** The full revision; `source` is given (object or null) only with the source provenance projection. */
export const toRevisionResponse = (r: RevisionRow, source?: ArtifactSourceReferenceResponse | null): ArtifactRevisionResponse => ({
  ...toRevisionSummary(r),
  content: r.content,
  ...(source !== undefined ? { source_reference: source } : {}),
});
