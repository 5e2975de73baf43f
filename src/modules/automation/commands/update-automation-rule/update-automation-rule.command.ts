import { Command } from '@nestjs/cqrs';
import type { Actor } from '../../../../common/auth/principal';
import type { AutomationRuleResponse } from '../../automation.response';
import type { CreateAutomationRuleDto } from '../create-automation-rule/create-automation-rule.dto';

export class UpdateAutomationRuleCommand extends Command<AutomationRuleResponse> {
  constructor(
    readonly actor: Actor,
    readonly ruleId: string,
    readonly dto: CreateAutomationRuleDto,
  ) {
    super();
  }
}
