import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AutomationRuleReader } from '../../automation-rule.reader';
import { toRuleResponse } from '../../automation.mapper';
import type { AutomationRuleResponse } from '../../automation.response';
import { GetAutomationRuleQuery } from './get-automation-rule.query';

@QueryHandler(GetAutomationRuleQuery)
export class GetAutomationRuleHandler implements IQueryHandler<GetAutomationRuleQuery, AutomationRuleResponse> {
  constructor(
    private readonly db: DataSource,
    private readonly rules: AutomationRuleReader,
  ) {}

  async execute({ actor, ruleId }: GetAutomationRuleQuery): Promise<AutomationRuleResponse> {
    await this.rules.assertCanRead(actor);
    return toRuleResponse(await this.rules.readable(this.db.manager, actor, ruleId));
  }
}
