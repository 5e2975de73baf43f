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

  /** The organization's plan, locking its row for the rest of the transaction; undefined when it is gone. */
  async lockPlan(orgId: string, m?: Tx): Promise<PlanName | undefined> {
    return (await this.sql.row<{ plan: PlanName }>('SELECT plan FROM organizations WHERE id = $1 FOR UPDATE', [orgId], m))?.plan;
  }

  /** How many of `resource` the organization uses now. */
  async usage(orgId: string, resource: PlanResource, m?: Tx): Promise<number> {
    return (await this.sql.row<{ n: number }>(USAGE_SQL[resource], [orgId], m))?.n ?? 0;
  }
}
