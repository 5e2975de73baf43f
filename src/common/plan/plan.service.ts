import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { PlanName } from '../../config/config';
import { Errors } from '../errors/domain-error';
import { PLAN_LIMITS, PLAN_RESOURCES, type PlanResource, USAGE_SQL } from './plans';

@Injectable()
export class PlanService {
  constructor(private readonly db: DataSource) {}

  /**
   * Call inside the creating transaction: locks the organization row so concurrent creations
   * cannot both pass the check, then refuses with 402 when `adding` more would exceed the plan.
   */
  async assertCanAdd(manager: EntityManager, orgId: string, resource: PlanResource, adding = 1): Promise<void> {
    const rows: Array<{ plan: PlanName }> = await manager.query('SELECT plan FROM organizations WHERE id = $1 FOR UPDATE', [orgId]);
    const plan = rows[0]?.plan;
    if (!plan) throw Errors.notFound();
    const limit = PLAN_LIMITS[plan][resource];
    if (limit === null) return;
    const usage = await this.count(manager, orgId, resource);
    if (usage + adding > limit) throw Errors.planLimit(resource, plan, limit, usage);
  }

  async usage(orgId: string): Promise<Record<PlanResource, number>> {
    const out = {} as Record<PlanResource, number>;
    for (const r of PLAN_RESOURCES) out[r] = await this.count(this.db.manager, orgId, r);
    return out;
  }

  private async count(manager: EntityManager, orgId: string, resource: PlanResource): Promise<number> {
    const r: Array<{ n: number }> = await manager.query(USAGE_SQL[resource], [orgId]);
    return r[0]?.n ?? 0;
  }
}
