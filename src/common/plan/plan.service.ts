import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Errors } from '../errors/domain-error';
import { PlanRepository } from './plan.repository';
import { PLAN_LIMITS, PLAN_RESOURCES, type PlanResource } from './plans';

@Injectable()
export class PlanService {
  constructor(private readonly repo: PlanRepository) {}

  /**
   * Call inside the creating transaction: locks the organization row so concurrent creations
   * cannot both pass the check, then refuses with 402 when `adding` more would exceed the plan.
   */
  async assertCanAdd(manager: EntityManager, orgId: string, resource: PlanResource, adding = 1): Promise<void> {
    const plan = await this.repo.lockPlan(orgId, manager);
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
