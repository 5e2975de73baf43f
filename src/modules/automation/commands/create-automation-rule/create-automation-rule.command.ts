import { Command } from '@nestjs/cqrs';
import type { Actor } from '../../../../common/auth/principal';
import type { AutomationRuleResponse } from '../../automation.response';
import type { CreateAutomationRuleDto } from './create-automation-rule.dto';

export class CreateAutomationRuleCommand extends Command<AutomationRuleResponse> {
  constructor(
    readonly actor: Actor,
    readonly dto: CreateAutomationRuleDto,
  ) {
    super();
  }
}
