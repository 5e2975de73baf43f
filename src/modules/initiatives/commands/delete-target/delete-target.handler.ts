import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { InitiativeScope } from '../../initiative-scope.service';
import { InitiativeTargetsRepository } from '../../initiative-targets.repository';
import type { SuccessResponse } from '../../initiatives.response';
import { DeleteTargetCommand } from './delete-target.command';
import { TxRunner } from '../../../../database/tx-runner';

/** Edit/admin on every project in the target's typed scope; its links go with it. */
@CommandHandler(DeleteTargetCommand)
export class DeleteTargetHandler implements ICommandHandler<DeleteTargetCommand, SuccessResponse> {
  constructor(
    private readonly tx: TxRunner,
    private readonly scope: InitiativeScope,
    private readonly targets: InitiativeTargetsRepository,
  ) {}

  async execute({ actor, initiativeId, targetId }: DeleteTargetCommand): Promise<SuccessResponse> {
    await this.tx.run(async (m) => {
      const ini = await this.scope.readable(actor, initiativeId, m, true);
      const target = await this.scope.target(actor, ini, targetId, m);
      await this.scope.assertTargetWrite(actor, target, undefined, m);
      await this.targets.delete(actor.orgId, target.id, m);
    });
    return { success: true };
  }
}
