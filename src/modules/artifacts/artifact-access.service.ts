import { Injectable } from '@nestjs/common';
import type { AccessLevel } from '../../common/access/access-level';
import { AccessPolicyService, atLeast } from '../../common/access/access-policy.service';
import type { Actor } from '../../common/auth/principal';
import { Errors } from '../../common/errors/domain-error';
import { isUuid } from '../../common/http/validation';
import { IssueReferenceResolver } from '../issues/issue-reference.resolver';
import type { LinkTargetType } from './artifact-input';
import { type ArtifactRow, ArtifactsRepository, type LinkRow } from './artifacts.repository';

/** A readable artifact with every link, the links the caller may see, and the caller's write level. */
export interface ReadableArtifact {
  artifact: ArtifactRow;
  links: LinkRow[];
  visibleLinks: LinkRow[];
  level: AccessLevel | null;
}

const notFound = () => Errors.notFound('Artifact not found');

/**
 * Who may do what with artifacts, decided by AccessPolicyService.artifactAccess: read when any link
 * target is readable (unlinked: non-guests), write with `edit` on every target. Unreadable
 * artifacts (every link unreadable, another organization, unknown or non-UUID id) are 404.
 */
@Injectable()
export class ArtifactAccess {
  constructor(
    private readonly artifacts: ArtifactsRepository,
    private readonly access: AccessPolicyService,
    private readonly resolver: IssueReferenceResolver,
  ) {}

  private async targetLevel(actor: Actor, l: LinkRow): Promise<AccessLevel | null> {
    return l.target_type === 'issue' ? this.access.issueLevel(actor, l.project_id) : this.access.levelFor(actor, l.project_id!);
  }

  /** The artifact if the caller can read it, else 404. */
  async read(actor: Actor, artifactId: string): Promise<ReadableArtifact> {
    if (!isUuid(artifactId)) throw notFound();
    const artifact = await this.artifacts.find(actor.orgId, artifactId);
    if (!artifact) throw notFound();
    const links = await this.artifacts.links(actor.orgId, [artifactId]);
    const { readable, level } = await this.access.artifactAccess(
      actor,
      links.map((l) => ({ type: l.target_type, projectId: l.project_id })),
    );
    if (!readable) throw notFound();
    const visibleLinks: LinkRow[] = [];
    for (const l of links) if (await this.targetLevel(actor, l)) visibleLinks.push(l);
    return { artifact, links, visibleLinks, level };
  }

  /** As `read`, then 403 unless the caller may write it (`edit` on every link target). */
  async write(actor: Actor, artifactId: string): Promise<ReadableArtifact> {
    const r = await this.read(actor, artifactId);
    if (!atLeast(r.level, 'edit')) throw Errors.forbidden('Changing this artifact needs edit access to every issue and project it is linked to');
    return r;
  }

  /** Only the links whose target the caller can read. */
  async visible(actor: Actor, links: LinkRow[]): Promise<LinkRow[]> {
    const out: LinkRow[] = [];
    for (const l of links) if (await this.targetLevel(actor, l)) out.push(l);
    return out;
  }

  /** Which artifacts of the organization the caller reads: every one (baseline) or those linked into these projects. */
  readableProjects(actor: Actor): Promise<'all' | string[]> {
    return this.access.readableProjects(actor);
  }

  /**
   * A link target the caller may read (404 concealed otherwise; issues by any reference form) and,
   * with `needed`, write (403). Answers the canonical id and the project it belongs to.
   */
  async target(
    actor: Actor,
    t: { type: LinkTargetType; id: string },
    needed?: AccessLevel,
  ): Promise<{ type: LinkTargetType; id: string; projectId: string | null; title?: string }> {
    if (t.type === 'issue') {
      const issue = await this.resolver.resolve(actor, t.id);
      if (needed && !atLeast(issue.accessLevel, needed)) throw Errors.forbidden(`Linking needs ${needed} access to the issue's project`);
      return { type: 'issue', id: issue.id, projectId: issue.projectId, title: issue.title };
    }
    if (!isUuid(t.id)) throw Errors.notFound('Project not found');
    const id = t.id.toLowerCase();
    if (needed) await this.access.assertProjectWrite(actor, id, needed);
    else await this.access.assertProjectRead(actor, id);
    return { type: 'project', id, projectId: id };
  }

  /** 403 unless the caller may create an artifact without links (non-guests). */
  async assertUnlinkedWrite(actor: Actor): Promise<void> {
    const { level } = await this.access.artifactAccess(actor, []);
    if (!atLeast(level, 'edit')) throw Errors.forbidden('Guests create artifacts linked to an issue or project they can edit');
  }

  /** Whether the caller can read an issue or project (a revision's source target). */
  async canReadTarget(actor: Actor, type: LinkTargetType, id: string): Promise<boolean> {
    if (type === 'project') return !!(await this.access.levelFor(actor, id));
    return this.access.assertIssueRead(actor, id).then(
      () => true,
      () => false,
    );
  }

  assertOrgAdmin(actor: Actor, message: string): void {
    this.access.assertOrgAdmin(actor, message);
  }
}
