import { Injectable } from '@nestjs/common';
import { AccessPolicyService } from '../../common/access/access-policy.service';
import type { Actor } from '../../common/auth/principal';
import { Errors } from '../../common/errors/domain-error';
import { MembersRepository } from '../members/members.repository';
import { GoalsRepository, type StrategyFilter } from './goals.repository';
import { KpisRepository } from './kpis.repository';

export type { StrategyFilter } from './goals.repository';

/**
 * Applies the access policy's strategy rule (AccessPolicyService.strategyLevel) to goals, KPIs and
 * the initiatives they show: project-bound records follow project access, organization-level
 * ones are readable by non-guests. Initiatives follow AccessPolicyService.strategySetLevel: with
 * their own project, that project; otherwise any readable project linked through
 * initiative_projects; with neither, non-guests. Writes need organization
 * owner/admin; an unreadable record is 404 before that (concealment first).
 */
@Injectable()
export class StrategyAccess {
  constructor(
    private readonly access: AccessPolicyService,
    private readonly goals: GoalsRepository,
    private readonly kpis: KpisRepository,
    private readonly members: MembersRepository,
  ) {}

  async filter(actor: Actor): Promise<StrategyFilter> {
    const v = await this.access.strategyVisibility(actor);
    return { orgLevel: v.orgLevel, projects: v.projects === 'all' ? null : v.projects };
  }

  async assertRead(actor: Actor, table: 'goals' | 'kpis', id: string): Promise<{ projectId: string | null }> {
    const what = table === 'goals' ? 'Goal not found' : 'KPI not found';
    const rec = await (table === 'goals' ? this.goals : this.kpis).projectOf(actor.orgId, id);
    if (!rec) throw Errors.notFound(what);
    await this.access.assertStrategyRead(actor, rec.project_id, what);
    return { projectId: rec.project_id };
  }

  /** Owner/admin writes: 404 when unreadable, then 403 for everyone but owners and admins. */
  async assertWrite(actor: Actor, table: 'goals' | 'kpis', id: string): Promise<{ projectId: string | null }> {
    const rec = await this.assertRead(actor, table, id);
    this.assertStrategyAdmin(actor);
    return rec;
  }

  assertStrategyAdmin(actor: Actor): void {
    this.access.assertOrgAdmin(actor, 'Only organization owners and admins can change goals, KPIs and snapshots');
  }

  /** A project named by a strategy record: must exist in the organization and be readable (404). */
  async assertProject(actor: Actor, projectId: string): Promise<void> {
    await this.access.assertProjectRead(actor, projectId);
  }

  /** An active member of the organization (400 otherwise). */
  async assertMember(orgId: string, memberId: string, field: string): Promise<void> {
    if (!(await this.members.liveSummary(orgId, memberId))) throw Errors.validation(`${field} must be an active member of this organization`);
  }

  /** A goal of the organization the caller can read (404 "Goal not found"). */
  async assertGoal(actor: Actor, goalId: string): Promise<void> {
    await this.assertRead(actor, 'goals', goalId);
  }

  /** Initiative the caller can read (404 otherwise). */
  async assertInitiativeRead(actor: Actor, initiativeId: string): Promise<void> {
    const f = await this.filter(actor);
    if (!(await this.kpis.initiativeVisible(actor.orgId, initiativeId, f))) throw Errors.notFound('Initiative not found');
  }

  /**
   * Of the issue and initiative ids a snapshot is attributed to, the ones the caller can read
   * (issues by their project's access, projectless ones by non-guests; initiatives as
   * initiativeVisibleSql). Everyone else sees those attributions as null.
   */
  async readableAttributions(actor: Actor, issueIds: string[], initiativeIds: string[]): Promise<Set<string>> {
    const f = await this.filter(actor);
    if (f.orgLevel && f.projects === null) return new Set([...issueIds, ...initiativeIds]);
    return new Set(await this.kpis.visibleAttributions(actor.orgId, issueIds, initiativeIds, f));
  }

  /** Issue the caller can read (404 otherwise). */
  async assertIssueRead(actor: Actor, issueId: string): Promise<void> {
    await this.access.assertIssueRead(actor, issueId);
  }
}
