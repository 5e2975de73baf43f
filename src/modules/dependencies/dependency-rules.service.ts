import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Errors } from '../../common/errors/domain-error';
import { isUuid } from '../../common/http/validation';
import { blockedIssuesSql, DependenciesRepository, satisfiedByColumnsSql, satisfiedSql } from './dependencies.repository';

/**
 * The one definition of when a dependency is satisfied, and the rules other modules apply to
 * dependencies (issue list `scope=blocked`, `isBlocked`, project moves). The SQL fragments are
 * also exported as functions for the repositories whose statements embed them.
 *
 * A dependency is satisfied when the blocking issue
 * - is archived, or its status is `done` or `cancelled` (always), or
 * - has a release column (of its own project) and its status is a column of that project whose
 *   position is at or after the release column's position.
 * A dependency without a release column (legacy rows) is satisfied only by `done`/`cancelled`.
 */
@Injectable()
export class DependencyRules {
  constructor(private readonly dependencies: DependenciesRepository) {}

  /**
   * SQL boolean: the dependency row `dep` (an `issue_dependencies` alias) is satisfied, given
   * `blocker` (an `issues` alias of its blocking issue).
   */
  satisfiedSql(dep = 'd', blocker = 'b'): string {
    return satisfiedSql(dep, blocker);
  }

  /**
   * The same definition for a dependency row `dep` that carries its blocker's `status`,
   * `archived_at` and `release_column_id`, with the board columns already joined: `release` the
   * release column restricted to the blocker's current project, `reached` the column of the
   * blocker's status in that project (both outer joins, so legacy and moved cases are null and
   * count as unsatisfied). Used where one statement evaluates many dependencies (the chain view).
   */
  satisfiedByColumnsSql(dep: string, release: string, reached: string): string {
    return satisfiedByColumnsSql(dep, release, reached);
  }

  /** SQL boolean: issue `<alias>` (an `issues` alias) has at least one unsatisfied blocker. */
  blockedIssuesSql(orgAlias = 'i'): string {
    return blockedIssuesSql(orgAlias);
  }

  /** Whether one issue has an unsatisfied blocker. */
  isBlocked(m: EntityManager | null | undefined, orgId: string, issueId: string): Promise<boolean> {
    return this.dependencies.isBlocked(orgId, issueId, m);
  }

  /**
   * Called (inside the caller's transaction) when issue `issueId` moves to `newProjectId`. Every
   * dependency in which it is the blocking issue needs a mapping to a column of the new project
   * (400 listing the unmapped dependency ids otherwise); moving such an issue out of every project
   * is 400. Mappings for dependencies it does not block are 400 too.
   */
  async remapOnProjectChange(
    m: EntityManager,
    orgId: string,
    issueId: string,
    newProjectId: string | null,
    mappings: Array<{ dependencyId: string; releaseColumnId: string }> | undefined,
  ): Promise<void> {
    const deps = await this.dependencies.lockBlockedBy(orgId, issueId, m);
    if (mappings !== undefined && !Array.isArray(mappings)) throw Errors.validation('dependencyReleaseMappings must be an array');
    const list = mappings ?? [];
    if (!deps.length) {
      if (list.length) throw Errors.validation('dependencyReleaseMappings given, but this issue blocks no other issue');
      return;
    }
    const ids = deps.map((d) => d.id);
    if (!newProjectId) {
      throw Errors.validation('An issue that blocks other issues must stay in a project; remove its blocking dependencies first', { dependency_ids: ids });
    }
    const byDep = new Map<string, string>();
    for (const raw of list as unknown[]) {
      const e = (raw ?? {}) as Record<string, unknown>;
      if (typeof raw !== 'object' || raw === null)
        throw Errors.validation('Each dependency release mapping must be an object { dependencyId, releaseColumnId }');
      const depId = e.dependencyId ?? e.dependency_id;
      const colId = e.releaseColumnId ?? e.release_column_id;
      if (!isUuid(depId) || !isUuid(colId)) throw Errors.validation('Each dependency release mapping needs UUID dependencyId and releaseColumnId');
      const key = depId.toLowerCase();
      if (byDep.has(key)) throw Errors.validation(`Dependency ${key} is mapped twice`);
      byDep.set(key, colId.toLowerCase());
    }
    const unknown = [...byDep.keys()].filter((k) => !ids.includes(k));
    if (unknown.length) throw Errors.validation('dependencyReleaseMappings name dependencies this issue does not block', { dependency_ids: unknown });
    const missing = ids.filter((id) => !byDep.has(id));
    if (missing.length) {
      throw Errors.validation(`Moving this issue needs a release column of the new project for every dependency it blocks: ${missing.join(', ')}`, {
        dependency_ids: missing,
      });
    }
    const colIds = [...new Set(byDep.values())];
    const cols = await this.dependencies.projectColumnsAmong(orgId, newProjectId, colIds, m);
    const valid = new Set(cols.map((c) => c.id));
    const bad = ids.filter((id) => !valid.has(byDep.get(id)!));
    if (bad.length) {
      throw Errors.validation(`releaseColumnId must be a column of the new project (dependencies: ${bad.join(', ')})`, { dependency_ids: bad });
    }
    for (const id of ids) await this.dependencies.setReleaseColumn(orgId, id, byDep.get(id)!, m);
  }
}
