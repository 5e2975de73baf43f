import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { listResponse } from '../../../../common/http/list';
import { AutomationRuleReader } from '../../automation-rule.reader';
import { toRuleResponse } from '../../automation.mapper';
import { AutomationRepository } from '../../automation.repository';
import { ListAutomationRulesQuery } from './list-automation-rules.query';

/** Readable rules (org-wide ones and those of readable projects), oldest first; `?project_id=` narrows to one project. */
@QueryHandler(ListAutomationRulesQuery)
export class ListAutomationRulesHandler implements IQueryHandler<ListAutomationRulesQuery, Record<string, unknown>> {
  constructor(
    private readonly repo: AutomationRepository,
    private readonly rules: AutomationRuleReader,
  ) {}

  async execute({ actor, page, projectId }: ListAutomationRulesQuery): Promise<Record<string, unknown>> {
    await this.rules.assertCanRead(actor);
    const readable = await this.rules.readableProjects(actor);
    const { rows, total } = await this.repo.listRules(actor.orgId, readable, projectId ?? undefined, page.limit, page.offset);
    return listResponse('rules', rows.map(toRuleResponse), total, page);
  }
}
