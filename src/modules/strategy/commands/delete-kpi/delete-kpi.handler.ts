import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { StrategyAccess } from '../../strategy-access';
import type { StrategySuccessResponse } from '../../strategy.response';
import { DeleteKpiCommand } from './delete-kpi.command';

/** 404 unreadable, 403 for everyone but owners and admins; its snapshots and impact links go with it. */
@CommandHandler(DeleteKpiCommand)
export class DeleteKpiHandler implements ICommandHandler<DeleteKpiCommand, StrategySuccessResponse> {
  constructor(
    private readonly db: DataSource,
    private readonly strategy: StrategyAccess,
  ) {}

  async execute({ actor, kpiId }: DeleteKpiCommand): Promise<StrategySuccessResponse> {
    await this.strategy.assertWrite(actor, 'kpis', kpiId);
    await this.db.query('DELETE FROM kpis WHERE org_id = $1 AND id = $2', [actor.orgId, kpiId]);
    return { success: true };
  }
}
