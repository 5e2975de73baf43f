import type { Actor } from '../../../../common/auth/principal';
import type { DryRunAutomationRuleDto } from './dry-run-automation-rule.dto';

export class DryRunAutomationRuleQuery {
  constructor(
    readonly actor: Actor,
    readonly ruleId: string,
    readonly dto: DryRunAutomationRuleDto,
  ) {}
}
