import { Injectable } from '@nestjs/common';
import type { Actor } from '../../common/auth/principal';
import { DomainError } from '../../common/errors/domain-error';
import type { SourceSnapshot } from './artifact-input';
import { GithubReferenceLinks } from '../github/reference-links.service';
import { ArtifactAccess } from './artifact-access.service';
import type { RevisionRow } from './artifacts.repository';
import type { ArtifactSourceReferenceResponse } from './artifacts.response';

export const sourceUnavailable = () =>
  new DomainError(404, 'source_reference_unavailable', 'The source reference link does not exist, is not visible to you, or was removed');
export const sourceTargetMismatch = () =>
  new DomainError(400, 'source_target_mismatch', 'The source reference link is on an issue or project this artifact is not linked to');

/** The external-reference links a source may name (provided by the GitHub integration: GithubReferenceLinks). */
export interface ExternalReferenceLinks {
  /** The link and its reference, if it exists in the organization. */
  find(orgId: string, linkId: string): Promise<(SourceSnapshot & { id: string }) | undefined>;
  /** Which of these link ids still exist. */
  live(orgId: string, linkIds: string[]): Promise<Set<string>>;
}

/**
 * Source provenance of revisions: an immutable pointer snapshot of the external-reference link a
 * revision was written from. Nothing is fetched from or synchronized with the provider.
 * - resolve: missing, concealed (target unreadable) or removed link → 404 `source_reference_unavailable`
 *   (indistinguishable); a link whose target is not one of the artifact's link targets → 400
 *   `source_target_mismatch`.
 * - projection (`source_provenance_v1`): null without a source or when the caller cannot read the
 *   source target (linking the artifact elsewhere grants nothing); `currently_linked` is live.
 */
@Injectable()
export class ArtifactSources {
  private readonly links: ExternalReferenceLinks;

  /** The links come from the GitHub integration's external references (src/modules/github). */
  constructor(
    private readonly access: ArtifactAccess,
    links: GithubReferenceLinks,
  ) {
    this.links = links;
  }

  async resolve(actor: Actor, linkId: string, artifactTargets: Array<{ type: string; id: string }>): Promise<SourceSnapshot> {
    const link = await this.links.find(actor.orgId, linkId);
    if (!link || !(await this.access.canReadTarget(actor, link.targetType, link.targetId))) throw sourceUnavailable();
    if (!artifactTargets.some((t) => t.type === link.targetType && t.id === link.targetId)) throw sourceTargetMismatch();
    return link;
  }

  async projection(actor: Actor, r: RevisionRow): Promise<ArtifactSourceReferenceResponse | null> {
    if (!r.source_link_id || !r.source_target_type || !r.source_target_id) return null;
    if (!(await this.access.canReadTarget(actor, r.source_target_type, r.source_target_id))) return null;
    const live = await this.links.live(actor.orgId, [r.source_link_id]);
    return {
      external_reference_id: r.source_external_reference_id!,
      target_type: r.source_target_type,
      target_id: r.source_target_id,
      canonical_url: r.source_canonical_url!,
      provider: r.source_provider!,
      object_type: r.source_object_type!,
      provenance: r.source_provenance!,
      label: r.source_label ?? null,
      currently_linked: live.has(r.source_link_id),
    };
  }
}
