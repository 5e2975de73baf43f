import { Command } from '@nestjs/cqrs';
import type { Actor } from '../../../../common/auth/principal';

export class DeleteAutomationRuleCommand extends Command<void> {
  constructor(
    readonly actor: Actor,
    readonly ruleId: string,
  ) {
    super();
  }
}
