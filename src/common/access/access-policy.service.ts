import { Injectable } from '@nestjs/common';
import type { AccessLevel } from './access-level';
import { Errors } from '../errors/domain-error';
import { isUuid } from '../http/validation';
import { type Actor, actorForMember, type MemberAccessRow } from '../auth/principal';
import type { Tx } from '../../database/sql.service';
import { AccessRepository, type IssueAccessRow } from './access.repository';

export interface IssueRef {
  id: string;
  projectId: string | null;
  number: number;
  title: string;
  status: string;
  archivedAt: Date | null;
  /** Its assignees (links and the primary, unordered) when the check read them. */
  assigneeIds?: string[];
}

const RANK: Record<AccessLevel, number> = { view: 1, edit: 2, admin: 3 };
export const maxLevel = (a: AccessLevel | null, b: AccessLevel | null): AccessLevel | null => (!a ? b : !b ? a : RANK[a] >= RANK[b] ? a : b);
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
 * - The automation actor (`automationActor`, a rule's actions): `admin` on every project of its
 *   organization; it never acts through an HTTP request.
 * Unreadable resources are 404 (concealed); readable but not writable ones are 403.
 */
@Injectable()
export class AccessPolicyService {
  private readonly cache = new WeakMap<Actor, Promise<ProjectAccess>>();

  constructor(private readonly repo: AccessRepository) {}

  /**
   * Computed once per request (the actor object lives for one request). Inside a transaction pass
   * it (`m`): the look-ups then run on its connection.
   */
  projectAccess(actor: Actor, m?: Tx): Promise<ProjectAccess> {
    let p = this.cache.get(actor);
    if (!p) {
      p = this.compute(actor, m);
      this.cache.set(actor, p);
    }
    return p;
  }

  /** Whose access applies: the caller, or for a personal agent its owner (live; null when the owner is gone). */
  private async subject(actor: Actor, m?: Tx): Promise<{ memberId: string; role: Actor['role'] } | null> {
    if (actor.agentScope !== 'personal' || !actor.ownerMemberId) return { memberId: actor.memberId, role: actor.role };
    const role = await this.repo.liveRole(actor.orgId, actor.ownerMemberId, m);
    return role ? { memberId: actor.ownerMemberId, role } : null;
  }

  private async compute(actor: Actor, m?: Tx): Promise<ProjectAccess> {
    // an automation rule's actions (no member): every project of its own organization
    if (actor.isAutomation) return { baseline: 'admin', explicit: new Map() };
    const subject = await this.subject(actor, m);
    if (!subject) return { baseline: null, explicit: new Map() };
    if (subject.role === 'owner' || subject.role === 'admin') return { baseline: 'admin', explicit: new Map() };
    // the caller's own grants usually came with its credential (AuthRepository)
    const rows =
      subject.memberId === actor.memberId && actor.grants ? actor.grants : await this.repo.grants(actor.orgId, subject.memberId, subject.role !== 'guest', m);
    const explicit = new Map<string, AccessLevel>();
    for (const r of rows) explicit.set(r.project_id, maxLevel(explicit.get(r.project_id) ?? null, r.access_level)!);
    return { baseline: subject.role === 'member' ? 'view' : null, explicit };
  }

  async levelFor(actor: Actor, projectId: string, m?: Tx): Promise<AccessLevel | null> {
    const a = await this.projectAccess(actor, m);
    return maxLevel(a.baseline, a.explicit.get(projectId) ?? null);
  }

  /**
   * The organization-wide baseline when the caller's own live role decides it (owners, admins and
   * members that are not personal agents): exactly what `compute` would find, without its grants
   * query. Undefined when explicit grants (guests) or the owner's role (personal agents) are needed.
   */
  private knownBaseline(actor: Actor): AccessLevel | undefined {
    if (actor.agentScope === 'personal' && actor.ownerMemberId) return undefined;
    if (actor.role === 'owner' || actor.role === 'admin') return 'admin';
    return actor.role === 'member' ? 'view' : undefined;
  }

  /** Project ids the caller can read, or 'all' when every project of the organization is readable. */
  async readableProjects(actor: Actor): Promise<'all' | string[]> {
    // every project is readable with a baseline, whatever the explicit grants: no query needed
    if (!this.cache.has(actor) && this.knownBaseline(actor)) return 'all';
    const a = await this.projectAccess(actor);
    if (a.baseline) return 'all';
    return [...a.explicit.keys()];
  }

  /**
   * Every project of the organization with the caller's effective level (unreadable ones omitted),
   * in one query (the auth context reads it on every call), and seeds the per-request cache.
   */
  async projectLevels(actor: Actor): Promise<Array<{ projectId: string; accessLevel: AccessLevel }>> {
    const cached = this.cache.get(actor);
    const subject = cached ? null : await this.subject(actor);
    if (cached || !subject || subject.role === 'owner' || subject.role === 'admin') {
      const a = await this.projectAccess(actor);
      const ids = a.baseline ? await this.repo.projectIds(actor.orgId) : [...a.explicit.keys()];
      return ids.map((projectId: string) => ({ projectId, accessLevel: maxLevel(a.baseline, a.explicit.get(projectId) ?? null)! }));
    }
    const rows = await this.repo.projectGrants(actor.orgId, subject.memberId, subject.role !== 'guest');
    const baseline: AccessLevel | null = subject.role === 'member' ? 'view' : null;
    const explicit = new Map<string, AccessLevel>();
    for (const r of rows) if (r.access_level) explicit.set(r.id, r.access_level);
    this.cache.set(actor, Promise.resolve({ baseline, explicit }));
    return rows
      .map((r) => ({ projectId: r.id, accessLevel: maxLevel(baseline, r.access_level) }))
      .filter((r): r is { projectId: string; accessLevel: AccessLevel } => r.accessLevel !== null);
  }

  /**
   * Whether `holder` has at least `subject`'s effective level on every project the subject can
   * access (its organization-wide baseline included), so acting as the subject gives the holder no
   * project access of its own. Agent management uses it (src/modules/agents/agent-management.policy.ts).
   * Inside a transaction pass it (`m`): the look-ups then run on its connection, one after another.
   */
  async coversAccessOf(holder: Actor, subject: Actor, m?: Tx): Promise<boolean> {
    const have = await this.projectAccess(holder, m);
    const need = await this.projectAccess(subject, m);
    if (have.baseline === 'admin') return true;
    const levelIn = (a: ProjectAccess, projectId: string) => maxLevel(a.baseline, a.explicit.get(projectId) ?? null);
    // a baseline above the holder's reaches every project: each needs an explicit grant of the holder
    const everyProject = need.baseline && !atLeast(have.baseline, need.baseline) ? await this.repo.projectIds(holder.orgId, m) : [];
    for (const projectId of new Set([...everyProject, ...need.explicit.keys()])) {
      const needed = levelIn(need, projectId);
      if (needed && !atLeast(levelIn(have, projectId), needed)) return false;
    }
    return true;
  }

  /**
   * For writes decided with the role the caller authenticated with: share-locks the caller's member
   * row for the rest of transaction `m` and checks that role is still live. A concurrent role change
   * or removal then either waits for this transaction (and re-evaluates what it wrote) or has already
   * committed (409 `role_changed`; a removed caller gets 404, as any non-member).
   */
  async lockCallerRole(actor: Actor, m: Tx): Promise<void> {
    const role = await this.repo.lockLiveRole(actor.orgId, actor.memberId, m);
    if (!role) throw Errors.notFound();
    if (role !== actor.role) throw Errors.conflict('Your organization role changed while this request ran; retry it', 'role_changed');
  }

  /**
   * Concealment first: a project the caller cannot read is 404 whether or not it exists. A caller
   * that already read whether the project exists (in its transaction) passes it as `exists`.
   */
  async assertProjectRead(actor: Actor, projectId: string, m?: Tx, exists?: boolean): Promise<AccessLevel> {
    const level = await this.levelFor(actor, projectId, m);
    if (!level || !(exists ?? (await this.repo.projectExists(actor.orgId, projectId, m)))) throw Errors.notFound('Project not found');
    return level;
  }

  /** As assertProjectRead, for callers that only need to know the project is readable (no level). */
  async assertProjectReadable(actor: Actor, projectId: string): Promise<void> {
    if (!this.cache.has(actor) && this.knownBaseline(actor)) {
      if (!(await this.repo.projectExists(actor.orgId, projectId))) throw Errors.notFound('Project not found');
      return;
    }
    await this.assertProjectRead(actor, projectId);
  }

  async assertProjectWrite(actor: Actor, projectId: string, needed: AccessLevel = 'edit', m?: Tx, exists?: boolean): Promise<AccessLevel> {
    const level = await this.assertProjectRead(actor, projectId, m, exists);
    if (!atLeast(level, needed)) throw Errors.forbidden(`This needs ${needed} access to the project`);
    return level;
  }

  /**
   * Effective access to an issue: its project's level. Projectless issues belong to the
   * organization: every non-guest (by effective live role) may read and write them; guests never
   * see them.
   */
  async issueLevel(actor: Actor, projectId: string | null, m?: Tx): Promise<AccessLevel | null> {
    if (projectId) return this.levelFor(actor, projectId, m);
    return (await this.projectAccess(actor, m)).baseline ? 'edit' : null;
  }

  /**
   * Loads an issue of the caller's organization by UUID for reading: 404 when it does not exist,
   * is not a UUID, or is not readable (concealed).
   */
  async assertIssueRead(actor: Actor, issueId: string, m?: Tx): Promise<IssueRef & { accessLevel: AccessLevel }> {
    if (!isUuid(issueId)) throw Errors.notFound('Issue not found');
    return this.readableIssue(actor, await this.repo.issue(actor.orgId, issueId, m), m);
  }

  /**
   * As assertIssueRead, for an issue row the caller read itself beside other data (one statement
   * less; undefined: no such issue): 404 unless the caller may read it.
   */
  async readableIssue(actor: Actor, r: (IssueAccessRow & { assignee_ids?: string[] }) | undefined, m?: Tx): Promise<IssueRef & { accessLevel: AccessLevel }> {
    const level = r ? await this.issueLevel(actor, r.project_id, m) : null;
    if (!r || !level) throw Errors.notFound('Issue not found');
    return {
      id: r.id,
      projectId: r.project_id,
      number: r.number,
      title: r.title,
      status: r.status,
      archivedAt: r.archived_at,
      ...(r.assignee_ids ? { assigneeIds: r.assignee_ids } : {}),
      accessLevel: level,
    };
  }

  /** As assertIssueRead, then 403 when the caller may read but not write (`edit` by default). */
  async assertIssueWrite(actor: Actor, issueId: string, needed: AccessLevel = 'edit'): Promise<IssueRef & { accessLevel: AccessLevel }> {
    const issue = await this.assertIssueRead(actor, issueId);
    if (!atLeast(issue.accessLevel, needed)) throw Errors.forbidden(`This needs ${needed} access to the issue's project`);
    return issue;
  }

  /**
   * Artifacts (src/modules/artifacts). A linked artifact follows its link targets: an issue target
   * by the issue's access (projectless: non-guests), a project target by the project's. It is
   * readable when ANY target is readable, and its write level is the LOWEST over ALL targets (a
   * target the caller cannot read leaves no write level). An unlinked artifact belongs to the
   * organization: non-guests read and write it by their baseline (owners/admins `admin`).
   */
  async artifactAccess(
    actor: Actor,
    targets: ReadonlyArray<{ type: 'issue' | 'project'; projectId: string | null }>,
  ): Promise<{ readable: boolean; level: AccessLevel | null }> {
    if (!targets.length) {
      const baseline = (await this.projectAccess(actor)).baseline;
      return { readable: !!baseline, level: baseline === 'admin' ? 'admin' : baseline ? 'edit' : null };
    }
    let readable = false;
    let lowest: AccessLevel | null | undefined;
    for (const t of targets) {
      const level = t.type === 'issue' ? await this.issueLevel(actor, t.projectId) : await this.levelFor(actor, t.projectId!);
      if (level) readable = true;
      lowest = lowest === undefined ? level : !level || !lowest ? null : RANK[level] < RANK[lowest] ? level : lowest;
    }
    return { readable, level: lowest ?? null };
  }

  /**
   * Strategy records (goals, KPIs, initiatives, targets, syncs): a project-bound record follows
   * its project's access; an organization-level one (no project) is readable by non-guests only
   * (by effective live role, as projectless issues). Null = not readable (conceal as 404).
   */
  strategyLevel(actor: Actor, projectId: string | null, m?: Tx): Promise<AccessLevel | null> {
    return this.issueLevel(actor, projectId, m);
  }

  /**
   * Issue templates: a project template follows its project's access (read with any level, write
   * with edit); an organization-wide one (no project) is read by non-guests by effective live role
   * (guests and project-scoped agents never see it: null, concealed as 404) and managed by owners
   * and admins (`admin`; members `view`).
   */
  async templateLevel(actor: Actor, projectId: string | null, m?: Tx): Promise<AccessLevel | null> {
    if (projectId) return this.levelFor(actor, projectId, m);
    const baseline = (await this.projectAccess(actor, m)).baseline;
    return baseline ? (baseline === 'admin' ? 'admin' : 'view') : null;
  }

  /** 404 (`message`) unless the strategy record with this project binding is readable. */
  async assertStrategyRead(actor: Actor, projectId: string | null, message = 'Not found'): Promise<AccessLevel> {
    const level = await this.strategyLevel(actor, projectId);
    if (!level) throw Errors.notFound(message);
    return level;
  }

  /**
   * Of the given members, the live ones (not removed) who can read an issue of `projectId` now
   * (projectless: non-guests by their effective role), judged exactly as if each were the caller.
   * Used to decide who may be told about something (notification recipients).
   */
  async issueReadersAmong(orgId: string, memberIds: string[], projectId: string | null, m?: Tx): Promise<MemberAccessRow[]> {
    if (!memberIds.length) return [];
    const rows = await this.repo.liveMembers(orgId, memberIds, m);
    const out: MemberAccessRow[] = [];
    for (const r of rows) {
      const reader = actorForMember(orgId, r);
      // a baseline (owners, admins, members) reads every project and the projectless issues
      if (this.knownBaseline(reader) || (await this.issueLevel(reader, projectId, m))) out.push(r);
    }
    return out;
  }

  /**
   * KPI HTTP sync administration (allowlist, secrets, config edits, stored-config validation, dry
   * runs, publish, disable, run-now, run history): human owners and admins only; agents never,
   * whatever their role.
   */
  assertKpiSyncAdmin(actor: Actor): void {
    if (!actor.isHuman || !actor.isOwnerOrAdmin) throw Errors.forbidden('KPI HTTP sync administration needs a human organization owner or admin');
  }

  /**
   * KPI HTTP sync drafts and proposed-config validation: human owners/admins, and machine actors
   * (agents) that are not guests by their effective live role. Non-admin humans only read.
   */
  async assertKpiSyncDrafter(actor: Actor): Promise<void> {
    if (actor.isHuman) {
      if (!actor.isOwnerOrAdmin) throw Errors.forbidden('Only organization owners and admins (or agents) can draft KPI HTTP syncs');
      return;
    }
    await this.assertOrgWideMember(actor, 'Guest agents cannot draft KPI HTTP syncs');
  }

  /**
   * Reading KPI HTTP syncs: non-guests by effective live role (guests 403). On the org-wide review
   * route machine actors are refused too (`humansOnly`). Returns whether the caller sees
   * configuration ('full': owners and admins) or redacted status rows ('redacted').
   */
  async kpiSyncReadLevel(actor: Actor, humansOnly: boolean): Promise<'full' | 'redacted'> {
    if (humansOnly && !actor.isHuman) throw Errors.forbidden('The KPI HTTP sync review is for human members');
    await this.assertOrgWideMember(actor, 'Guests cannot read KPI HTTP syncs');
    return actor.isOwnerOrAdmin ? 'full' : 'redacted';
  }

  /**
   * Strategy records bound to a SET of projects (initiatives with linked projects, initiative
   * targets with their typed scope). With a primary `projectId` the record follows that project;
   * otherwise an empty set is organization-level (non-guests), and a non-empty set is readable
   * through any readable project of it (and by every non-guest, whose baseline reads all).
   */
  async strategySetLevel(actor: Actor, projectId: string | null, projectIds: readonly string[], m?: Tx): Promise<AccessLevel | null> {
    if (projectId) return this.levelFor(actor, projectId, m);
    const a = await this.projectAccess(actor, m);
    let level: AccessLevel | null = a.baseline ? (projectIds.length ? a.baseline : 'edit') : null;
    for (const p of projectIds) level = maxLevel(level, a.explicit.get(p) ?? null);
    return level;
  }

  /**
   * Writes to a strategy record bound to a set of projects: edit/admin on EVERY project of the set
   * (403 naming none of the unreadable ones); an empty set (organization-level record) needs an
   * organization owner or admin by effective live role.
   */
  async assertStrategyWrite(
    actor: Actor,
    projectIds: readonly string[],
    message = 'This needs edit access to every project linked to this record',
    m?: Tx,
  ): Promise<void> {
    if (!projectIds.length) {
      const a = await this.projectAccess(actor, m);
      if (a.baseline !== 'admin') throw Errors.forbidden('Organization-level strategy records can be changed by organization owners and admins only');
      return;
    }
    for (const p of projectIds) if (!atLeast(await this.levelFor(actor, p, m), 'edit')) throw Errors.forbidden(message);
  }

  /**
   * What strategy records a caller may list, for SQL filters: `orgLevel` = organization-level
   * records (no project) are readable; `projects` = readable project ids or 'all'. Same rule as
   * strategyLevel.
   */
  async strategyVisibility(actor: Actor): Promise<{ orgLevel: boolean; projects: 'all' | string[] }> {
    const a = await this.projectAccess(actor);
    return { orgLevel: !!a.baseline, projects: a.baseline ? 'all' : [...a.explicit.keys()] };
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
  async assertOrgWideMember(actor: Actor, message = 'Guests cannot do this', m?: Tx): Promise<void> {
    if (actor.isGuest) throw Errors.forbidden(message);
    // owners, admins and members (not personal agents): their live role is the baseline, no query
    if (!this.cache.has(actor) && this.knownBaseline(actor)) return;
    if (!(await this.projectAccess(actor, m)).baseline) throw Errors.forbidden(message);
  }
}
