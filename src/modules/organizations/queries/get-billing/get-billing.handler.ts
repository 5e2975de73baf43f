import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { Errors } from '../../../../common/errors/domain-error';
import { PlanService } from '../../../../common/plan/plan.service';
import { PLAN_LIMITS } from '../../../../common/plan/plans';
import { OrganizationEntity } from '../../entities/organization.entity';
import type { BillingResponse } from '../../organizations.response';
import { GetBillingQuery } from './get-billing.query';

/** Plan, limits and live usage. Every member may read it (no payment data is kept here). */
@QueryHandler(GetBillingQuery)
export class GetBillingHandler implements IQueryHandler<GetBillingQuery, BillingResponse> {
  constructor(
    private readonly db: DataSource,
    private readonly plans: PlanService,
  ) {}

  async execute({ actor }: GetBillingQuery): Promise<BillingResponse> {
    const org = await this.db.getRepository(OrganizationEntity).findOneBy({ id: actor.orgId });
    if (!org) throw Errors.notFound();
    return { plan: org.plan, limits: { ...PLAN_LIMITS[org.plan] }, usage: await this.plans.usage(org.id) };
  }
}
