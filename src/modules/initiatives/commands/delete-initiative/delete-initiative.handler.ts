import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { InitiativeEventsPublisher } from '../../initiative-events';
import { InitiativeScope } from '../../initiative-scope.service';
import { InitiativesRepository } from '../../initiatives.repository';
import type { SuccessResponse } from '../../initiatives.response';
import { DeleteInitiativeCommand } from './delete-initiative.command';
import { TxRunner } from '../../../../database/tx-runner';

/** Same rule as update; links and targets go with it (CASCADE). */
@CommandHandler(DeleteInitiativeCommand)
export class DeleteInitiativeHandler implements ICommandHandler<DeleteInitiativeCommand, SuccessResponse> {
  constructor(
    private readonly tx: TxRunner,
    private readonly scope: InitiativeScope,
    private readonly publish: InitiativeEventsPublisher,
    private readonly initiatives: InitiativesRepository,
  ) {}

  async execute({ actor, initiativeId }: DeleteInitiativeCommand): Promise<SuccessResponse> {
    const ini = await this.tx.run(async (m) => {
      const found = await this.scope.writable(actor, initiativeId, m, true);
      await this.initiatives.delete(actor.orgId, found.id, m);
      return found;
    });
    this.publish.linksChanged(actor.orgId, ini.id, [ini.goalId], 'initiative_deleted');
    return { success: true };
  }
}
