/** A link of an artifact to an issue or project. */
export class ArtifactLinkResponse {
  id: string;
  artifact_id: string;
  /** The artifact's type */
  artifact_type: string;
  /** `issue` or `project` */
  target_type: string;
  /** Issue or project UUID */
  target_id: string;
  /** Member who made the link; null when unknown or removed */
  created_by: string | null;
  created_at: string;
}

export class ArtifactResponse {
  id: string;
  org_id: string;
  /** `prd`, `implementation_plan`, `test_plan`, `decision`, `research` or `release_checklist` */
  type: string;
  /** 1..200 UTF-8 bytes */
  title: string;
  current_revision_id: string;
  /** Number of the current revision */
  revision_number: number;
  /** Creator member; null when the member was removed */
  created_by: string | null;
  created_at: string;
  updated_at: string;
  /** Links whose target the caller can read */
  links: ArtifactLinkResponse[];
}

/** The source an artifact revision was written from (`projection=source_provenance_v1`). */
export class ArtifactSourceReferenceResponse {
  external_reference_id: string;
  target_type: string;
  target_id: string;
  canonical_url: string;
  provider: string;
  object_type: string;
  provenance: string;
  label: string | null;
  /** Whether the link still exists now */
  currently_linked: boolean;
}

/** A revision without content (history). */
export class ArtifactRevisionSummaryResponse {
  id: string;
  artifact_id: string;
  revision_number: number;
  title_snapshot: string;
  /** `markdown` or `html` (as sent; content is always sanitized HTML) */
  content_format: string;
  /** SHA-256 (hex) of the stored content */
  content_digest: string;
  created_by: string | null;
  created_at: string;
}

export class ArtifactRevisionResponse extends ArtifactRevisionSummaryResponse {
  /** Sanitized HTML */
  content: string;
  /** Only with `projection=source_provenance_v1`: null without a source or when its target is unreadable */
  source_reference?: ArtifactSourceReferenceResponse | null;
}

export class ArtifactEnvelope {
  artifact: ArtifactResponse;
}
export class ArtifactWithRevisionEnvelope {
  artifact: ArtifactResponse;
  revision: ArtifactRevisionResponse;
}
export class ArtifactRevisionEnvelope {
  revision: ArtifactRevisionResponse;
}
export class ArtifactListResponse {
  artifacts: ArtifactResponse[];
  limit: number;
  offset: number;
  hasMore: boolean;
}
export class ArtifactRevisionListResponse {
  revisions: ArtifactRevisionSummaryResponse[];
  limit: number;
  offset: number;
  hasMore: boolean;
}
export class ArtifactLinkEnvelope {
  link: ArtifactLinkResponse;
}
export class ArtifactSuccessResponse {
  success: boolean;
}
