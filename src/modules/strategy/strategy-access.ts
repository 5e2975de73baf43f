import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../common/access/access-policy.service';
import type { Actor } from '../../common/auth/principal';
import { Errors } from '../../common/errors/domain-error';
import { strategyRecordProject } from './strategy.mapper';

/** SQL-ready form of the caller's strategy visibility: `$orgLevel` boolean, `$projects` uuid[] or null (= all). */
export interface StrategyFilter {
  orgLevel: boolean;
  projects: string[] | null;
}

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
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
  ) {}

  async filter(actor: Actor): Promise<StrategyFilter> {
    const v = await this.access.strategyVisibility(actor);
    return { orgLevel: v.orgLevel, projects: v.projects === 'all' ? null : v.projects };
  }

  /** SQL boolean: record alias `a` (with `project_id`) is visible; `$o` orgLevel, `$p` projects param numbers. */
  static visibleSql(a: string, o: number, p: number): string {
    return `(CASE WHEN ${a}.project_id IS NULL THEN $${o}::boolean ELSE ($${p}::uuid[] IS NULL OR ${a}.project_id = ANY($${p}::uuid[])) END)`;
  }

  /** SQL boolean: initiative alias `n` is visible (own project, any linked project, or organization-level). */
  static initiativeVisibleSql(n: string, o: number, p: number): string {
    return `($${p}::uuid[] IS NULL
      OR (${n}.project_id IS NOT NULL AND ${n}.project_id = ANY($${p}::uuid[]))
      OR (${n}.project_id IS NULL AND (
            EXISTS (SELECT 1 FROM initiative_projects vp WHERE vp.org_id = ${n}.org_id AND vp.initiative_id = ${n}.id AND vp.project_id = ANY($${p}::uuid[]))
            OR ($${o}::boolean AND NOT EXISTS (SELECT 1 FROM initiative_projects vp WHERE vp.org_id = ${n}.org_id AND vp.initiative_id = ${n}.id)))))`;
  }

  async assertRead(actor: Actor, table: 'goals' | 'kpis', id: string): Promise<{ projectId: string | null }> {
    const what = table === 'goals' ? 'Goal not found' : 'KPI not found';
    const rec = await strategyRecordProject(this.db.manager, table, actor.orgId, id);
    if (!rec) throw Errors.notFound(what);
    await this.access.assertStrategyRead(actor, rec.projectId, what);
    return rec;
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
    const rows: unknown[] = await this.db.query('SELECT 1 FROM members WHERE org_id = $1 AND id = $2 AND removed_at IS NULL', [orgId, memberId]);
    if (!rows.length) throw Errors.validation(`${field} must be an active member of this organization`);
  }

  /** A goal of the organization the caller can read (404 "Goal not found"). */
  async assertGoal(actor: Actor, goalId: string): Promise<void> {
    await this.assertRead(actor, 'goals', goalId);
  }

  /** Initiative the caller can read (404 otherwise). */
  async assertInitiativeRead(actor: Actor, initiativeId: string): Promise<void> {
    const f = await this.filter(actor);
    const rows: unknown[] = await this.db.query(
      `SELECT 1 FROM initiatives n WHERE n.org_id = $1 AND n.id = $2 AND ${StrategyAccess.initiativeVisibleSql('n', 3, 4)}`,
      [actor.orgId, initiativeId, f.orgLevel, f.projects],
    );
    if (!rows.length) throw Errors.notFound('Initiative not found');
  }

  /**
   * Of the issue and initiative ids a snapshot is attributed to, the ones the caller can read
   * (issues by their project's access, projectless ones by non-guests; initiatives as
   * initiativeVisibleSql). Everyone else sees those attributions as null.
   */
  async readableAttributions(actor: Actor, issueIds: string[], initiativeIds: string[]): Promise<Set<string>> {
    const f = await this.filter(actor);
    if (f.orgLevel && f.projects === null) return new Set([...issueIds, ...initiativeIds]);
    const rows: Array<{ id: string }> = await this.db.query(
      `SELECT i.id FROM issues i WHERE i.org_id = $1 AND i.id = ANY($2::uuid[]) AND ${StrategyAccess.visibleSql('i', 4, 5)}
       UNION ALL
       SELECT n.id FROM initiatives n WHERE n.org_id = $1 AND n.id = ANY($3::uuid[]) AND ${StrategyAccess.initiativeVisibleSql('n', 4, 5)}`,
      [actor.orgId, issueIds, initiativeIds, f.orgLevel, f.projects],
    );
    return new Set(rows.map((r) => r.id));
  }

  /** Issue the caller can read (404 otherwise). */
  async assertIssueRead(actor: Actor, issueId: string): Promise<void> {
    await this.access.assertIssueRead(actor, issueId);
  }
}
