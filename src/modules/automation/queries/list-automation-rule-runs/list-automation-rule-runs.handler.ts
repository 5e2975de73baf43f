import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AutomationRuleReader } from '../../automation-rule.reader';
import { AutomationRepository } from '../../automation.repository';
import { toRunResponse } from '../../automation.mapper';
import type { AutomationRunList } from '../../automation.response';
import { ListAutomationRuleRunsQuery } from './list-automation-rule-runs.query';

export const MAX_RUNS_SHOWN = 100;

/** Owner/admin: the latest 100 real runs, newest first; no event payloads, action inputs or response bodies. */
@QueryHandler(ListAutomationRuleRunsQuery)
export class ListAutomationRuleRunsHandler implements IQueryHandler<ListAutomationRuleRunsQuery, AutomationRunList> {
  constructor(
    private readonly db: DataSource,
    private readonly rules: AutomationRuleReader,
    private readonly repo: AutomationRepository,
  ) {}

  async execute({ actor, ruleId }: ListAutomationRuleRunsQuery): Promise<AutomationRunList> {
    this.rules.assertCanManage(actor);
    const rule = await this.rules.readable(this.db.manager, actor, ruleId);
    const runs = await this.repo.runsOf(actor.orgId, rule.id, MAX_RUNS_SHOWN);
    return { runs: runs.map(toRunResponse) };
  }
}
