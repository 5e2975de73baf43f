import type { Actor } from '../../../../common/auth/principal';

export class GetAutomationRuleQuery {
  constructor(
    readonly actor: Actor,
    readonly ruleId: string,
  ) {}
}
