import type { Actor } from '../../common/auth/principal';
import { type ActorSnapshot, IssueActivityEvent, ProjectActivityEvent, snapshotOf } from '../../common/events/domain-events';
import type { ReferenceLinkRow, TargetType } from './external-references.repository';
import type { PrLinkChange, PrLinkRow } from './pr-links.repository';

/**
 * Timeline entries of the GitHub integration (api-fields.md "Task Activity"): `github_pr.linked`,
 * `github_pr.updated`, `external_reference.linked`, `external_reference.updated` and
 * `external_reference.unlinked`. Staged in the writer's transaction (DomainEvents); metadata only:
 * identifiers, canonical URLs, states and the display title, never a provider payload. An issue
 * target is an issue entry; a project target a project-level entry (org feed, project access).
 */

/** The source-hosting provider as the actor of what it changed (webhooks, reconciliation): no member. */
export const GITHUB_ACTOR: ActorSnapshot = { id: null, display_name: 'GitHub', type: 'automation', avatar_url: null };

const prFields = (l: Pick<PrLinkRow, 'id' | 'owner' | 'repo' | 'pr_number' | 'pr_url'>) => ({
  pr_link_id: l.id,
  github_repo: `${l.owner}/${l.repo}`,
  pr_number: l.pr_number,
  pr_url: l.pr_url,
});

/** `github_pr.linked`: a member attached a pull request to an issue. */
export const prLinked = (actor: Actor, issue: { id: string; projectId: string | null }, l: PrLinkRow): IssueActivityEvent =>
  new IssueActivityEvent(actor.orgId, issue.id, issue.projectId, actor.memberId, snapshotOf(actor), 'github_pr.linked', {
    ...prFields(l),
    pr_title: l.pr_title,
    pr_status: l.pr_status,
    head_sha: l.head_sha,
  });

/** `github_pr.updated`: the provider's title, state or head of a linked PR changed (one entry per link). */
export const prUpdated = (orgId: string, changes: PrLinkChange[]): IssueActivityEvent[] =>
  changes.map((c) => {
    const changed: Record<string, { from: string | null; to: string | null }> = {};
    if (c.old_status !== c.pr_status) changed.pr_status = { from: c.old_status, to: c.pr_status };
    if (c.old_title !== c.pr_title) changed.pr_title = { from: c.old_title, to: c.pr_title };
    if (c.old_head !== c.head_sha) changed.head_sha = { from: c.old_head, to: c.head_sha };
    return new IssueActivityEvent(orgId, c.issue_id, c.project_id, null, GITHUB_ACTOR, 'github_pr.updated', {
      ...prFields(c),
      changed_fields: Object.keys(changed).sort(),
      changes: changed,
    });
  });

const refFields = (r: Pick<ReferenceLinkRow, 'id' | 'external_reference_id' | 'owner' | 'repo' | 'pr_number' | 'canonical_url' | 'label'>) => ({
  external_reference_id: r.external_reference_id,
  link_id: r.id,
  provider: 'github',
  object_type: 'pull_request',
  github_repo: `${r.owner}/${r.repo}`,
  pr_number: r.pr_number,
  canonical_url: r.canonical_url,
  title: r.label,
});

/** An `external_reference.*` entry on its target: the issue's timeline, or the project's (issue null). */
export function referenceEntry(
  orgId: string,
  target: { type: TargetType; id: string; projectId: string | null },
  action: 'external_reference.linked' | 'external_reference.updated' | 'external_reference.unlinked',
  r: Parameters<typeof refFields>[0],
  actor: { memberId: string | null; snapshot: ActorSnapshot },
  extra: Record<string, unknown> = {},
): IssueActivityEvent | ProjectActivityEvent {
  const metadata = { ...refFields(r), target_type: target.type, target_id: target.id, ...extra };
  return target.type === 'issue'
    ? new IssueActivityEvent(orgId, target.id, target.projectId, actor.memberId, actor.snapshot, action, metadata)
    : new ProjectActivityEvent(orgId, target.id, actor.memberId, actor.snapshot, action, metadata);
}
