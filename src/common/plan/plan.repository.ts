import { Injectable } from '@nestjs/common';
import { Sql, type Tx } from '../../database/sql.service';
import type { PlanName } from '../../config/config';
import type { PlanResource } from './plans';

/**
 * How each resource is counted: active (not removed) humans plus pending, unexpired invitations (a
 * seat is held from the invitation on, so accepting never overshoots), active agents, active
 * projects, open non-archived issues.
 */
const USAGE_SQL: Record<PlanResource, string> = {
  humans: `SELECT ((SELECT count(*) FROM members WHERE org_id = $1 AND type = 'human' AND removed_at IS NULL)
               + (SELECT count(*) FROM invitations WHERE org_id = $1 AND status = 'pending' AND expires_at > now()))::int AS n`,
  agents: `SELECT count(*)::int AS n FROM members WHERE org_id = $1 AND type = 'agent' AND removed_at IS NULL`,
  activeProjects: `SELECT count(*)::int AS n FROM projects WHERE org_id = $1 AND status = 'active'`,
  activeIssues: `SELECT count(*)::int AS n FROM issues WHERE org_id = $1 AND archived_at IS NULL AND status NOT IN ('done', 'cancelled')`,
};

/** The plan of an organization and the usage its limits count. */
@Injectable()
export class PlanRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * The organization's plan (undefined when the organization is gone). When the plan is one of
   * `limitedPlans`, the same statement takes the transaction-scoped advisory lock of
   * (organization, `resource`), so concurrent creations of that resource count one after another;
   * any other plan takes no lock at all. The usage must be counted in a LATER statement (its
   * snapshot then sees every creation committed before the lock was granted).
   */
  async planLockingLimited(orgId: string, resource: PlanResource, limitedPlans: readonly PlanName[], m: Tx): Promise<PlanName | undefined> {
    const row = await this.sql.row<{ plan: PlanName }>(
      `SELECT o.plan, CASE WHEN o.plan = ANY($2::text[]) THEN pg_advisory_xact_lock(hashtextextended('plan:' || $3 || ':' || o.id::text, 0)) END AS locked
         FROM organizations o WHERE o.id = $1`,
      [orgId, limitedPlans, resource],
      m,
    );
    return row?.plan;
  }

  /** How many of `resource` the organization uses now. */
  async usage(orgId: string, resource: PlanResource, m?: Tx): Promise<number> {
    return (await this.sql.row<{ n: number }>(USAGE_SQL[resource], [orgId], m))?.n ?? 0;
  }
}
