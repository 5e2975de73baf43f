import type { Actor } from '../../../../common/auth/principal';

export class ListAutomationRuleRunsQuery {
  constructor(
    readonly actor: Actor,
    readonly ruleId: string,
  ) {}
}
