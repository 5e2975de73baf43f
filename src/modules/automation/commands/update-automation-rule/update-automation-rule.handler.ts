import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { parseRuleInput } from '../../automation-rule-input';
import type { RuleDefinition } from '../../automation-rule.model';
import { AutomationRuleReader } from '../../automation-rule.reader';
import { AutomationRuleValidator } from '../../automation-rule.validator';
import { toRuleResponse } from '../../automation.mapper';
import type { AutomationRuleResponse } from '../../automation.response';
import { AutomationRepository } from '../../automation.repository';
import { UpdateAutomationRuleCommand } from './update-automation-rule.command';
import { TxRunner } from '../../../../database/tx-runner';

/**
 * PUT (owner/admin): the fields sent replace the stored ones, omitted fields are kept
 * (`conditions: null` clears them, `project_id: null` makes the rule org-wide); the resulting rule
 * is checked where it changes (new actions, or a project change, which re-checks `set_status`
 * against the new project's statuses).
 */
@CommandHandler(UpdateAutomationRuleCommand)
export class UpdateAutomationRuleHandler implements ICommandHandler<UpdateAutomationRuleCommand> {
  constructor(
    private readonly tx: TxRunner,
    private readonly rules: AutomationRuleReader,
    private readonly validator: AutomationRuleValidator,
    private readonly repo: AutomationRepository,
  ) {}

  async execute({ actor, ruleId, dto }: UpdateAutomationRuleCommand): Promise<AutomationRuleResponse> {
    this.rules.assertCanManage(actor);
    const patch = parseRuleInput(dto as Record<string, unknown>, 'update');
    return this.tx.run(async (m) => {
      const rule = await this.rules.readable(m, actor, ruleId, true);
      const def: RuleDefinition = {
        name: patch.name ?? rule.name,
        triggerEvent: patch.triggerEvent ?? rule.triggerEvent,
        conditions: patch.conditions ?? rule.conditions,
        actions: patch.actions ?? rule.actions,
        enabled: patch.enabled ?? rule.enabled,
        projectId: patch.projectId !== undefined ? patch.projectId : rule.projectId,
      };
      const projectChanged = def.projectId !== rule.projectId;
      await this.validator.assertValid(m, actor.orgId, def, { project: projectChanged, actions: patch.actions !== undefined || projectChanged });
      Object.assign(rule, def, { updatedAt: new Date() });
      await this.repo.updateRule(rule, m);
      return toRuleResponse(rule);
    });
  }
}
