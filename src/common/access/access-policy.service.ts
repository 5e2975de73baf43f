import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { AccessLevel } from '../../modules/projects/entities/project-member.entity';
import { Errors } from '../errors/domain-error';
import { isUuid } from '../http/validation';
import type { Actor } from '../auth/principal';

export interface IssueRef {
  id: string;
  projectId: string | null;
  number: number;
  title: string;
  status: string;
  archivedAt: Date | null;
}

const RANK: Record<AccessLevel, number> = { view: 1, edit: 2, admin: 3 };
export const maxLevel = (a: AccessLevel | null, b: AccessLevel | null): AccessLevel | null =>
  !a ? b : !b ? a : RANK[a] >= RANK[b] ? a : b;
export const atLeast = (level: AccessLevel | null, needed: AccessLevel): boolean => !!level && RANK[level] >= RANK[needed];

/**
 * Effective project access of one caller. `baseline` applies to every project of the
 * organization; `explicit` holds per-project grants above it.
 */
export interface ProjectAccess {
  baseline: AccessLevel | null;
  explicit: Map<string, AccessLevel>;
}

/**
 * The one place that decides who may do what.
 *
 * - Organization membership: a non-member never learns the organization exists (404).
 * - Owners and admins: `admin` on every project.
 * - Members (humans and organization agents with role member): `view` on every project of the
 *   organization; write access comes from an explicit project entry or from membership of a team
 *   assigned to the project (`edit`).
 * - Guests (and project-scoped agents, which are guests): only their explicit entries.
 * - Personal agents: exactly their owner's live access.
 * Unreadable resources are 404 (concealed); readable but not writable ones are 403.
 */
@Injectable()
export class AccessPolicyService {
  private readonly cache = new WeakMap<Actor, Promise<ProjectAccess>>();

  constructor(private readonly db: DataSource) {}

  /** Computed once per request (the actor object lives for one request). */
  projectAccess(actor: Actor): Promise<ProjectAccess> {
    let p = this.cache.get(actor);
    if (!p) {
      p = this.compute(actor);
      this.cache.set(actor, p);
    }
    return p;
  }

  private async compute(actor: Actor): Promise<ProjectAccess> {
    let subjectId = actor.memberId;
    let role = actor.role;
    if (actor.agentScope === 'personal' && actor.ownerMemberId) {
      const owner: Array<{ role: Actor['role'] }> = await this.db.query(
        'SELECT role FROM members WHERE org_id = $1 AND id = $2 AND removed_at IS NULL',
        [actor.orgId, actor.ownerMemberId],
      );
      if (!owner[0]) return { baseline: null, explicit: new Map() };
      subjectId = actor.ownerMemberId;
      role = owner[0].role;
    }
    if (role === 'owner' || role === 'admin') return { baseline: 'admin', explicit: new Map() };
    const rows: Array<{ project_id: string; access_level: AccessLevel }> = await this.db.query(
      role === 'guest'
        ? `SELECT project_id, access_level FROM project_members WHERE org_id = $1 AND member_id = $2`
        : `SELECT project_id, access_level FROM project_members WHERE org_id = $1 AND member_id = $2
           UNION ALL
           SELECT pt.project_id, 'edit' FROM project_teams pt
             JOIN team_members tm ON tm.org_id = pt.org_id AND tm.team_id = pt.team_id
            WHERE pt.org_id = $1 AND tm.member_id = $2`,
      [actor.orgId, subjectId],
    );
    const explicit = new Map<string, AccessLevel>();
    for (const r of rows) explicit.set(r.project_id, maxLevel(explicit.get(r.project_id) ?? null, r.access_level)!);
    return { baseline: role === 'member' ? 'view' : null, explicit };
  }

  async levelFor(actor: Actor, projectId: string): Promise<AccessLevel | null> {
    const a = await this.projectAccess(actor);
    return maxLevel(a.baseline, a.explicit.get(projectId) ?? null);
  }

  /** Project ids the caller can read, or 'all' when every project of the organization is readable. */
  async readableProjects(actor: Actor): Promise<'all' | string[]> {
    const a = await this.projectAccess(actor);
    if (a.baseline) return 'all';
    return [...a.explicit.keys()];
  }

  /** Every project of the organization with the caller's effective level (unreadable ones omitted). */
  async projectLevels(actor: Actor, manager: EntityManager = this.db.manager): Promise<Array<{ projectId: string; accessLevel: AccessLevel }>> {
    const a = await this.projectAccess(actor);
    let ids: string[];
    if (a.baseline) {
      const rows: Array<{ id: string }> = await manager.query('SELECT id FROM projects WHERE org_id = $1 ORDER BY created_at, id', [actor.orgId]);
      ids = rows.map((r) => r.id);
    } else {
      ids = [...a.explicit.keys()];
    }
    return ids.map((projectId) => ({ projectId, accessLevel: maxLevel(a.baseline, a.explicit.get(projectId) ?? null)! }));
  }

  /** Concealment first: a project the caller cannot read is 404 whether or not it exists. */
  async assertProjectRead(actor: Actor, projectId: string): Promise<AccessLevel> {
    const level = await this.levelFor(actor, projectId);
    if (!level || !(await this.projectExists(actor.orgId, projectId))) throw Errors.notFound('Project not found');
    return level;
  }

  async assertProjectWrite(actor: Actor, projectId: string, needed: AccessLevel = 'edit'): Promise<AccessLevel> {
    const level = await this.assertProjectRead(actor, projectId);
    if (!atLeast(level, needed)) throw Errors.forbidden(`This needs ${needed} access to the project`);
    return level;
  }

  /**
   * Effective access to an issue: its project's level. Projectless issues belong to the
   * organization: every non-guest (by effective live role) may read and write them; guests never
   * see them.
   */
  async issueLevel(actor: Actor, projectId: string | null): Promise<AccessLevel | null> {
    if (projectId) return this.levelFor(actor, projectId);
    return (await this.projectAccess(actor)).baseline ? 'edit' : null;
  }

  /**
   * Loads an issue of the caller's organization by UUID for reading: 404 when it does not exist,
   * is not a UUID, or is not readable (concealed).
   */
  async assertIssueRead(actor: Actor, issueId: string): Promise<IssueRef & { accessLevel: AccessLevel }> {
    if (!isUuid(issueId)) throw Errors.notFound('Issue not found');
    const rows: Array<Record<string, any>> = await this.db.query(
      'SELECT id, project_id, number, title, status, archived_at FROM issues WHERE org_id = $1 AND id = $2',
      [actor.orgId, issueId],
    );
    const r = rows[0];
    const level = r ? await this.issueLevel(actor, r.project_id) : null;
    if (!r || !level) throw Errors.notFound('Issue not found');
    return { id: r.id, projectId: r.project_id, number: r.number, title: r.title, status: r.status, archivedAt: r.archived_at, accessLevel: level };
  }

  /** As assertIssueRead, then 403 when the caller may read but not write (`edit` by default). */
  async assertIssueWrite(actor: Actor, issueId: string, needed: AccessLevel = 'edit'): Promise<IssueRef & { accessLevel: AccessLevel }> {
    const issue = await this.assertIssueRead(actor, issueId);
    if (!atLeast(issue.accessLevel, needed)) throw Errors.forbidden(`This needs ${needed} access to the issue's project`);
    return issue;
  }

  assertOrgAdmin(actor: Actor, message = 'Only organization owners and admins can do this'): void {
    if (!actor.isOwnerOrAdmin) throw Errors.forbidden(message);
  }

  assertOrgOwner(actor: Actor, message = 'Only organization owners can do this'): void {
    if (actor.role !== 'owner') throw Errors.forbidden(message);
  }

  assertHuman(actor: Actor, message = 'This needs a human web session'): void {
    if (!actor.isHuman) throw Errors.forbidden(message);
  }

  assertNotGuest(actor: Actor): void {
    if (actor.isGuest) throw Errors.forbidden('Guests cannot do this');
  }

  /**
   * Non-guests by their effective live role: a personal agent acts with its owner's role, so one
   * whose owner is now a guest (or gone) is refused too. Every non-guest has an organization-wide
   * baseline (`view` for members, `admin` for owners/admins); guests have none.
   */
  async assertOrgWideMember(actor: Actor, message = 'Guests cannot do this'): Promise<void> {
    if (actor.isGuest || !(await this.projectAccess(actor)).baseline) throw Errors.forbidden(message);
  }

  private async projectExists(orgId: string, projectId: string): Promise<boolean> {
    const r: unknown[] = await this.db.query('SELECT 1 FROM projects WHERE org_id = $1 AND id = $2', [orgId, projectId]);
    return r.length > 0;
  }
}
