import type { ConnectionRow } from './github-connections.repository';
import type { ReferenceLinkRow } from './external-references.repository';
import type { PrLinkRow } from './pr-links.repository';
import type { ExternalReferenceResponse, GithubConnectionResponse, PrLinkResponse } from './github.response';

const num = (v: string | null): number | null => (v === null ? null : Number(v));

export const connectionResponse = (c: ConnectionRow): GithubConnectionResponse => ({
  id: c.id,
  org_id: c.org_id,
  provider: 'github',
  account_login: c.account_login,
  verification_mode: c.verification_mode,
  enabled: c.enabled,
  token_configured: true,
  webhook_secret_configured: true,
  webhook_path: `/api/webhooks/github/${c.id}`,
  created_by: c.created_by_member_id,
  created_at: c.created_at.toISOString(),
  updated_at: c.updated_at.toISOString(),
});

export const prLinkResponse = (l: PrLinkRow): PrLinkResponse => ({
  id: l.id,
  issue_id: l.issue_id,
  pr_number: l.pr_number,
  pr_id: num(l.pr_id),
  github_repo: `${l.owner}/${l.repo}`,
  github_repository_id: num(l.github_repository_id),
  external_reference_id: l.external_reference_id,
  pr_url: l.pr_url,
  pr_title: l.pr_title,
  pr_status: l.pr_status,
  head_sha: l.head_sha,
  base_ref: l.base_ref,
  base_sha: l.base_sha,
  created_at: l.created_at.toISOString(),
  updated_at: l.updated_at.toISOString(),
});

export const referenceResponse = (r: ReferenceLinkRow): ExternalReferenceResponse => ({
  id: r.id,
  external_reference_id: r.external_reference_id,
  target_type: r.target_type,
  target_id: r.target_id,
  provider: r.provider,
  object_type: r.object_type,
  provenance: r.provenance,
  canonical_url: r.canonical_url,
  label: r.label,
  github_repo: `${r.owner}/${r.repo}`,
  github_repository_id: Number(r.repository_id),
  pr_number: r.pr_number,
  pr_id: Number(r.pr_id),
  created_by: r.created_by_member_id,
  created_at: r.created_at.toISOString(),
});
