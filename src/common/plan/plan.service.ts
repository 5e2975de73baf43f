import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Errors } from '../errors/domain-error';
import { PlanRepository } from './plan.repository';
import type { PlanName } from '../../config/config';
import { PLAN_LIMITS, PLAN_RESOURCES, type PlanResource } from './plans';

/** Per resource, the plans that limit it (only their creations need to count under a lock). */
const LIMITED_PLANS = Object.fromEntries(
  PLAN_RESOURCES.map((r) => [r, (Object.keys(PLAN_LIMITS) as PlanName[]).filter((p) => PLAN_LIMITS[p][r] !== null)]),
) as Record<PlanResource, PlanName[]>;

@Injectable()
export class PlanService {
  constructor(private readonly repo: PlanRepository) {}

  /**
   * Call inside the creating transaction: refuses with 402 when `adding` more would exceed the
   * plan. A plan without a limit for `resource` takes no lock (writes of such an organization never
   * wait for each other here); a limited plan serializes the creations of `resource` in the
   * organization on an advisory lock held until commit, so concurrent creations cannot both pass
   * the check. A caller that already read the plan in its transaction passes it (`knownPlan`):
   * without a limit, nothing more runs.
   */
  async assertCanAdd(manager: EntityManager, orgId: string, resource: PlanResource, adding = 1, knownPlan?: PlanName): Promise<void> {
    if (knownPlan !== undefined && PLAN_LIMITS[knownPlan][resource] === null) return;
    const plan = await this.repo.planLockingLimited(orgId, resource, LIMITED_PLANS[resource], manager);
    if (!plan) throw Errors.notFound();
    const limit = PLAN_LIMITS[plan][resource];
    if (limit === null) return;
    const usage = await this.repo.usage(orgId, resource, manager);
    if (usage + adding > limit) throw Errors.planLimit(resource, plan, limit, usage);
  }

  async usage(orgId: string): Promise<Record<PlanResource, number>> {
    const out = {} as Record<PlanResource, number>;
    for (const r of PLAN_RESOURCES) out[r] = await this.repo.usage(orgId, r);
    return out;
  }
}
