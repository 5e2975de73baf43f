import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { parseRuleInput } from '../../automation-rule-input';
import type { RuleDefinition } from '../../automation-rule.model';
import { AutomationRuleReader } from '../../automation-rule.reader';
import { AutomationRuleValidator } from '../../automation-rule.validator';
import { toRuleResponse } from '../../automation.mapper';
import type { AutomationRuleResponse } from '../../automation.response';
import { AutomationRepository } from '../../automation.repository';
import { CreateAutomationRuleCommand } from './create-automation-rule.command';
import { TxRunner } from '../../../../database/tx-runner';

/** Owner/admin; the whole rule is checked before anything is stored. */
@CommandHandler(CreateAutomationRuleCommand)
export class CreateAutomationRuleHandler implements ICommandHandler<CreateAutomationRuleCommand> {
  constructor(
    private readonly tx: TxRunner,
    private readonly rules: AutomationRuleReader,
    private readonly validator: AutomationRuleValidator,
    private readonly repo: AutomationRepository,
  ) {}

  async execute({ actor, dto }: CreateAutomationRuleCommand): Promise<AutomationRuleResponse> {
    this.rules.assertCanManage(actor);
    const def = parseRuleInput(dto as Record<string, unknown>, 'create') as RuleDefinition;
    return this.tx.run(async (m) => {
      await this.validator.assertValid(m, actor.orgId, def);
      const now = new Date();
      const rule = { orgId: actor.orgId, id: randomUUID(), ...def, createdByMemberId: actor.memberId, createdAt: now, updatedAt: now };
      await this.repo.insertRule(rule, m);
      return toRuleResponse(rule);
    });
  }
}
