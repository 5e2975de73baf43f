import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { KpisRepository } from '../../kpis.repository';
import { StrategyAccess } from '../../strategy-access';
import type { StrategySuccessResponse } from '../../strategy.response';
import { DeleteKpiCommand } from './delete-kpi.command';
import { TxRunner } from '../../../../database/tx-runner';

/** 404 unreadable, 403 for everyone but owners and admins; its snapshots and impact links go with it. */
@CommandHandler(DeleteKpiCommand)
export class DeleteKpiHandler implements ICommandHandler<DeleteKpiCommand, StrategySuccessResponse> {
  constructor(
    private readonly tx: TxRunner,
    private readonly kpis: KpisRepository,
    private readonly strategy: StrategyAccess,
  ) {}

  async execute({ actor, kpiId }: DeleteKpiCommand): Promise<StrategySuccessResponse> {
    await this.strategy.assertWrite(actor, 'kpis', kpiId);
    await this.tx.run((m) => this.kpis.delete(actor.orgId, kpiId, m));
    return { success: true };
  }
}
