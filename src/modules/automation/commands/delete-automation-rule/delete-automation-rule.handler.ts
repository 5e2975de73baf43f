import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AutomationRuleReader } from '../../automation-rule.reader';
import { AutomationRepository } from '../../automation.repository';
import { DeleteAutomationRuleCommand } from './delete-automation-rule.command';
import { TxRunner } from '../../../../database/tx-runner';

/** Owner/admin; the rule's run history goes with it (foreign key cascade). */
@CommandHandler(DeleteAutomationRuleCommand)
export class DeleteAutomationRuleHandler implements ICommandHandler<DeleteAutomationRuleCommand> {
  constructor(
    private readonly tx: TxRunner,
    private readonly rules: AutomationRuleReader,
    private readonly repo: AutomationRepository,
  ) {}

  async execute({ actor, ruleId }: DeleteAutomationRuleCommand): Promise<void> {
    this.rules.assertCanManage(actor);
    await this.tx.run(async (m) => {
      const rule = await this.rules.readable(m, actor, ruleId, true);
      await this.repo.deleteRule(actor.orgId, rule.id, m);
    });
  }
}
