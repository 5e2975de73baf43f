import { Injectable } from '@nestjs/common';
import { ExternalReferencesRepository } from './external-references.repository';

/** An external-reference link as artifact source provenance snapshots it. */
export interface ReferenceLinkSnapshot {
  id: string;
  linkId: string;
  externalReferenceId: string;
  targetType: 'issue' | 'project';
  targetId: string;
  canonicalUrl: string;
  provider: string;
  objectType: string;
  provenance: string;
  label: string | null;
}

/**
 * The external-reference links artifacts may name as a revision's source (the artifacts module's
 * `ExternalReferenceLinks` port): a link by id in the organization, and which links still exist.
 * Access to the link's target is the caller's business (artifacts check it).
 */
@Injectable()
export class GithubReferenceLinks {
  constructor(private readonly refs: ExternalReferencesRepository) {}

  async find(orgId: string, linkId: string): Promise<ReferenceLinkSnapshot | undefined> {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(linkId)) return undefined;
    const r = await this.refs.byId(orgId, linkId);
    if (!r) return undefined;
    return {
      id: r.id,
      linkId: r.id,
      externalReferenceId: r.external_reference_id,
      targetType: r.target_type,
      targetId: r.target_id,
      canonicalUrl: r.canonical_url,
      provider: r.provider,
      objectType: r.object_type,
      provenance: r.provenance,
      label: r.label,
    };
  }

  live(orgId: string, linkIds: string[]): Promise<Set<string>> {
    return this.refs.liveIds(orgId, linkIds);
  }
}
