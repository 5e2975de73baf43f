import { Injectable } from '@nestjs/common';
import { AccessPolicyService, atLeast } from '../../common/access/access-policy.service';
import type { Actor } from '../../common/auth/principal';
import { DomainError, Errors } from '../../common/errors/domain-error';
import { isUuid } from '../../common/http/validation';
import type { Tx } from '../../database/sql.service';
import { IssueReferenceResolver, type ResolvedIssue } from '../issues/issue-reference.resolver';
import { MembersRepository } from '../members/members.repository';
import { type MilestoneRefRow, MilestonesRepository } from '../milestones/milestones.repository';
import { GoalsRepository } from '../strategy/goals.repository';
import { KpisRepository } from '../strategy/kpis.repository';
import { InitiativeTargetsRepository } from './initiative-targets.repository';
import { InitiativesRepository } from './initiatives.repository';
import type { ScopeType } from './target-input';

/** An initiative as the rules see it: its primary project and every project linked to it. */
export interface InitiativeRef {
  id: string;
  title: string;
  goalId: string | null;
  /** The primary binding (`project_id`), or null. */
  projectId: string | null;
  /** Projects linked through `initiative_projects`. */
  linkedProjectIds: string[];
  /** Primary plus linked, without duplicates: "every project linked to the initiative". */
  projectIds: string[];
}

export interface TargetRef {
  id: string;
  initiativeId: string;
  title: string;
  scopeType: ScopeType;
  /** The effective typed scope: the initiative's projects, or the target's own scope projects. */
  scopeProjectIds: string[];
}

export interface MilestoneRef {
  id: string;
  projectId: string;
  name: string;
}

/** What the caller can read, for filtering link ids and nested rows. */
export interface Visibility {
  /** Null project = a projectless issue (readable by non-guests only). */
  canSee(projectId: string | null): boolean;
  /** Readable project ids, or null when every project (and projectless work) is readable. */
  projectIds: string[] | null;
}

const outOfScope = (what: 'issue' | 'milestone') =>
  new DomainError(404, `${what}_out_of_scope`, `The ${what}'s project is not linked to this initiative; link the project to the initiative first`);

/**
 * The one place that loads initiatives and targets for a request and applies the strategy rules
 * of AccessPolicyService to them (reads: 404 when unreadable; writes: edit/admin on every project
 * of the record, organization owner/admin for organization-level records), and resolves the
 * issue and milestone references of link writes inside the initiative's scope.
 */
@Injectable()
export class InitiativeScope {
  constructor(
    private readonly access: AccessPolicyService,
    private readonly resolver: IssueReferenceResolver,
    private readonly initiatives: InitiativesRepository,
    private readonly targets: InitiativeTargetsRepository,
    private readonly milestones: MilestonesRepository,
    private readonly goals: GoalsRepository,
    private readonly kpis: KpisRepository,
    private readonly members: MembersRepository,
  ) {}

  async visibility(actor: Actor): Promise<Visibility> {
    const r = await this.access.readableProjects(actor);
    if (r === 'all') return { canSee: () => true, projectIds: null };
    const ids = new Set(r);
    return { canSee: (p) => !!p && ids.has(p), projectIds: r };
  }

  /** Loads an initiative (optionally locking its row in `m` for a link write); 404 when missing or unreadable. */
  async readable(actor: Actor, id: string, m?: Tx, lock = false): Promise<InitiativeRef> {
    if (!isUuid(id)) throw Errors.notFound('Initiative not found');
    if (lock) await this.initiatives.lock(actor.orgId, id, m);
    const r = await this.initiatives.findRef(actor.orgId, id, m);
    if (!r) throw Errors.notFound('Initiative not found');
    const ref: InitiativeRef = {
      id: r.id,
      title: r.title,
      goalId: r.goal_id,
      projectId: r.project_id,
      linkedProjectIds: r.linked,
      projectIds: [...new Set([...(r.project_id ? [r.project_id] : []), ...r.linked])],
    };
    if (!(await this.access.strategySetLevel(actor, ref.projectId, ref.linkedProjectIds, m))) throw Errors.notFound('Initiative not found');
    return ref;
  }

  /** Readable, then edit/admin on every project of the initiative (organization owner/admin when it has none). */
  async writable(actor: Actor, id: string, m?: Tx, lock = false): Promise<InitiativeRef> {
    const ini = await this.readable(actor, id, m, lock);
    await this.assertInitiativeWrite(actor, ini, m);
    return ini;
  }

  assertInitiativeWrite(actor: Actor, ini: InitiativeRef, m?: Tx): Promise<void> {
    return this.access.assertStrategyWrite(actor, ini.projectIds, 'This needs edit access to every project linked to the initiative', m);
  }

  /** A target of a readable initiative whose typed scope the caller can read; 404 otherwise. */
  async target(actor: Actor, ini: InitiativeRef, targetId: string, m?: Tx): Promise<TargetRef> {
    if (!isUuid(targetId)) throw Errors.notFound('Target not found');
    const r = await this.targets.findRef(actor.orgId, ini.id, targetId, m);
    if (!r) throw Errors.notFound('Target not found');
    const t: TargetRef = { id: r.id, initiativeId: ini.id, title: r.title, scopeType: r.scope_type, scopeProjectIds: this.scopeOf(ini, r.scope_type, r.scope) };
    if (!(await this.targetReadable(actor, ini, t, m))) throw Errors.notFound('Target not found');
    return t;
  }

  scopeOf(ini: InitiativeRef, type: ScopeType, own: string[]): string[] {
    return type === 'initiative' ? ini.projectIds : own;
  }

  async targetReadable(actor: Actor, ini: InitiativeRef, t: Pick<TargetRef, 'scopeType' | 'scopeProjectIds'>, m?: Tx): Promise<boolean> {
    const level =
      t.scopeType === 'initiative'
        ? await this.access.strategySetLevel(actor, ini.projectId, ini.linkedProjectIds, m)
        : await this.access.strategySetLevel(actor, null, t.scopeProjectIds, m);
    return level !== null;
  }

  /** edit/admin on every project in the target's typed scope (organization owner/admin when the scope is empty). */
  assertTargetWrite(actor: Actor, t: TargetRef, alsoInitiative?: InitiativeRef, m?: Tx): Promise<void> {
    const set = [...new Set([...t.scopeProjectIds, ...(alsoInitiative?.projectIds ?? [])])];
    return this.access.assertStrategyWrite(actor, set, 'This needs edit access to every project of the target and its initiative', m);
  }

  /**
   * Resolves an issue reference for a link write (any reference form, candidates filtered by the
   * caller's access first: 400 invalid, 404 unreadable, 409 ambiguous), then applies the scope
   * rule: a project-bound issue's project must already be linked to the initiative (404
   * `issue_out_of_scope`) and be writable (403); a projectless issue must be writable (non-guests).
   */
  async issueForLink(actor: Actor, ini: InitiativeRef, reference: string, m?: Tx): Promise<ResolvedIssue> {
    return this.assertIssueInScope(ini, await this.resolver.resolve(actor, reference, m));
  }

  assertIssueInScope(ini: InitiativeRef, issue: ResolvedIssue): ResolvedIssue {
    if (issue.projectId && !ini.projectIds.includes(issue.projectId)) throw outOfScope('issue');
    if (!atLeast(issue.accessLevel, 'edit')) throw Errors.forbidden("This needs edit access to the issue's project");
    return issue;
  }

  /** An issue addressed by UUID in a path (unlink): 404 when missing or unreadable, then the same scope rule. */
  async issueById(actor: Actor, ini: InitiativeRef, issueId: string, m?: Tx): Promise<ResolvedIssue> {
    return this.assertIssueInScope(ini, await this.access.assertIssueRead(actor, issueId, m));
  }

  /**
   * A milestone by UUID or exact name (case-sensitive, trimmed). Names are matched among the
   * milestones the caller can read; several matches inside the initiative's projects are a 409
   * `ambiguous_milestone` listing only readable candidates. The milestone's project must already be
   * linked to the initiative (404 `milestone_out_of_scope`) and be writable (403).
   */
  async milestoneForLink(actor: Actor, ini: InitiativeRef, reference: string, tx?: Tx): Promise<MilestoneRef> {
    const ref = reference.trim();
    const rows: MilestoneRefRow[] = isUuid(ref)
      ? [await this.milestones.findRef(actor.orgId, ref.toLowerCase(), tx)].filter((r): r is MilestoneRefRow => !!r)
      : await this.milestones.findRefsByName(actor.orgId, ref, tx);
    const readable: typeof rows = [];
    for (const r of rows) if (await this.access.levelFor(actor, r.project_id, tx)) readable.push(r);
    if (!readable.length) throw new DomainError(404, 'milestone_not_found', 'Milestone not found', { reference: ref.slice(0, 200) });
    const inScope = readable.filter((r) => ini.projectIds.includes(r.project_id));
    if (inScope.length > 1) {
      throw new DomainError(409, 'ambiguous_milestone', `Milestone name "${ref}" matches ${inScope.length} milestones; use the milestone UUID`, {
        reference: ref,
        candidates: inScope.map((r) => ({ id: r.id, name: r.name, project_id: r.project_id })),
      });
    }
    if (!inScope.length) {
      if (readable.length > 1) {
        throw new DomainError(409, 'ambiguous_milestone', `Milestone name "${ref}" matches ${readable.length} milestones; use the milestone UUID`, {
          reference: ref,
          candidates: readable.map((r) => ({ id: r.id, name: r.name, project_id: r.project_id })),
        });
      }
      throw outOfScope('milestone');
    }
    const m = inScope[0];
    if (!atLeast(await this.access.levelFor(actor, m.project_id, tx), 'edit')) throw Errors.forbidden("This needs edit access to the milestone's project");
    return { id: m.id, projectId: m.project_id, name: m.name };
  }

  /** A milestone addressed by UUID in a path (unlink): 404 unless readable, then the same scope rule. */
  async milestoneById(actor: Actor, ini: InitiativeRef, milestoneId: string, m?: Tx): Promise<MilestoneRef> {
    const r = await this.milestones.findRef(actor.orgId, milestoneId, m);
    if (!r || !(await this.access.levelFor(actor, r.project_id, m))) throw Errors.notFound('Milestone not found');
    if (!ini.projectIds.includes(r.project_id)) throw outOfScope('milestone');
    if (!atLeast(await this.access.levelFor(actor, r.project_id, m), 'edit')) throw Errors.forbidden("This needs edit access to the milestone's project");
    return { id: r.id, projectId: r.project_id, name: r.name };
  }

  /** A goal the initiative points at: 404 `goal_not_found` unless it exists and is readable. */
  async assertGoalReadable(actor: Actor, goalId: string, m?: Tx): Promise<void> {
    const goal = await this.goals.projectOf(actor.orgId, goalId, m);
    if (!goal || !(await this.access.strategyLevel(actor, goal.project_id, m))) throw new DomainError(404, 'goal_not_found', 'Goal not found');
  }

  /** An owner must be an active member of the organization (400 otherwise). */
  async assertActiveMember(actor: Actor, memberId: string, field = 'owner_id', m?: Tx): Promise<void> {
    if (!(await this.members.liveSummary(actor.orgId, memberId, m))) throw Errors.validation(`${field} is not an active member of this organization`);
  }

  /** A KPI for an impact link: 404 `kpi_not_found` unless it exists and is readable (a KPI follows its project binding). */
  async readableKpi(actor: Actor, kpiId: string, m?: Tx): Promise<{ id: string; goalId: string | null }> {
    const kpi = await this.kpis.findRef(actor.orgId, kpiId, m);
    if (!kpi || !(await this.access.strategyLevel(actor, kpi.project_id, m))) throw new DomainError(404, 'kpi_not_found', 'KPI not found');
    return { id: kpi.id, goalId: kpi.goal_id };
  }

  /**
   * Who may create an initiative without a primary project: guests and project-scoped agents never
   * (403 `project_required`: send project_id), others only as organization owners/admins.
   */
  async assertProjectlessCreate(actor: Actor): Promise<void> {
    const readable = await this.access.readableProjects(actor);
    if (actor.isGuest || readable !== 'all') {
      throw new DomainError(
        403,
        'project_required',
        'Guests and project-scoped agents create initiatives inside a project: send project_id of a project you can edit',
      );
    }
    await this.access.assertStrategyWrite(actor, []);
  }

  /** A project for a scope or link: 404 unless readable, 403 unless writable (edit). */
  async writableProject(actor: Actor, projectId: string, m?: Tx): Promise<void> {
    await this.access.assertProjectWrite(actor, projectId, 'edit', m);
  }
}
