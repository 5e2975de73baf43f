import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { InitiativeTargetsRepository } from '../../initiative-targets.repository';
import { InitiativeScope } from '../../initiative-scope.service';
import { InitiativeReader } from '../../initiative.reader';
import { assertGateCounts, targetInput } from '../../target-input';
import { assertScopeInsideInitiative } from '../../target-writes';
import type { TargetEnvelope } from '../../targets.response';
import { UpdateTargetCommand } from './update-target.command';
import { TxRunner } from '../../../../database/tx-runner';

/**
 * Edit/admin on every project in the target's typed scope (owner/admin when it is empty). Changing
 * the scope also needs the initiative write rule and a scope inside the initiative. Gate counts are
 * checked on the merged record.
 */
@CommandHandler(UpdateTargetCommand)
export class UpdateTargetHandler implements ICommandHandler<UpdateTargetCommand, TargetEnvelope> {
  constructor(
    private readonly tx: TxRunner,
    private readonly scope: InitiativeScope,
    private readonly reader: InitiativeReader,
    private readonly targets: InitiativeTargetsRepository,
  ) {}

  async execute({ actor, initiativeId, targetId, dto }: UpdateTargetCommand): Promise<TargetEnvelope> {
    const input = targetInput(dto, 'update');
    const ini = await this.tx.run(async (m) => {
      const found = await this.scope.readable(actor, initiativeId, m, true);
      const target = await this.scope.target(actor, found, targetId, m);
      await this.scope.assertTargetWrite(actor, target, undefined, m);
      if (input.scope) {
        await this.scope.assertInitiativeWrite(actor, found, m);
        assertScopeInsideInitiative(found, input.scope);
      }
      const cur = (await this.targets.gate(actor.orgId, target.id, m))!;
      assertGateCounts(
        input.mode ?? cur.mode,
        input.currentValue !== undefined ? input.currentValue : cur.current_value,
        input.targetValue !== undefined ? input.targetValue : cur.target_value,
      );
      const { scope, ...fields } = input;
      if (scope) await this.targets.replaceScope(actor.orgId, target.id, scope.type === 'projects' ? scope.projectIds : [], m);
      await this.targets.update(actor.orgId, target.id, fields, scope?.type, m);
      return found;
    });
    return { target: await this.reader.target(actor, await this.scope.readable(actor, ini.id), targetId) };
  }
}
