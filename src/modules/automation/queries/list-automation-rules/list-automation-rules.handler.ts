import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { listResponse } from '../../../../common/http/list';
import { AutomationRuleReader } from '../../automation-rule.reader';
import { toRuleResponse } from '../../automation.mapper';
import { AutomationRuleEntity } from '../../entities/automation-rule.entity';
import { ListAutomationRulesQuery } from './list-automation-rules.query';

/** Readable rules (org-wide ones and those of readable projects), oldest first; `?project_id=` narrows to one project. */
@QueryHandler(ListAutomationRulesQuery)
export class ListAutomationRulesHandler implements IQueryHandler<ListAutomationRulesQuery, Record<string, unknown>> {
  constructor(
    private readonly db: DataSource,
    private readonly rules: AutomationRuleReader,
  ) {}

  async execute({ actor, page, projectId }: ListAutomationRulesQuery): Promise<Record<string, unknown>> {
    await this.rules.assertCanRead(actor);
    const readable = await this.rules.readableProjects(actor);
    const qb = this.db.getRepository(AutomationRuleEntity).createQueryBuilder('r').where('r.orgId = :orgId', { orgId: actor.orgId });
    if (readable !== 'all') qb.andWhere('(r.projectId IS NULL OR r.projectId = ANY(:ids::uuid[]))', { ids: readable });
    if (projectId) qb.andWhere('r.projectId = :projectId', { projectId });
    const [rows, total] = await qb.orderBy('r.createdAt', 'ASC').addOrderBy('r.id', 'ASC').take(page.limit).skip(page.offset).getManyAndCount();
    return listResponse('rules', rows.map(toRuleResponse), total, page);
  }
}
