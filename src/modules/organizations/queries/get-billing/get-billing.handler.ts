import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Errors } from '../../../../common/errors/domain-error';
import { PlanService } from '../../../../common/plan/plan.service';
import { PLAN_LIMITS } from '../../../../common/plan/plans';
import { OrganizationsRepository } from '../../organizations.repository';
import type { BillingResponse } from '../../organizations.response';
import { GetBillingQuery } from './get-billing.query';

/** Plan, limits and live usage. Every member may read it (no payment data is kept here). */
@QueryHandler(GetBillingQuery)
export class GetBillingHandler implements IQueryHandler<GetBillingQuery, BillingResponse> {
  constructor(
    private readonly organizations: OrganizationsRepository,
    private readonly plans: PlanService,
  ) {}

  async execute({ actor }: GetBillingQuery): Promise<BillingResponse> {
    const org = await this.organizations.findById(actor.orgId);
    if (!org) throw Errors.notFound();
    return { plan: org.plan, limits: { ...PLAN_LIMITS[org.plan] }, usage: await this.plans.usage(org.id) };
  }
}
