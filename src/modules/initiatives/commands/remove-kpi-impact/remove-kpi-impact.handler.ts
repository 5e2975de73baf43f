import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { Errors } from '../../../../common/errors/domain-error';
import { InitiativeScope } from '../../initiative-scope.service';
import { readKpiImpacts } from '../../initiatives.mapper';
import type { SuccessResponse } from '../../initiatives.response';
import { RemoveKpiImpactCommand } from './remove-kpi-impact.command';

/** Initiative write rule; an impact on a KPI the caller cannot read is concealed (404). */
@CommandHandler(RemoveKpiImpactCommand)
export class RemoveKpiImpactHandler implements ICommandHandler<RemoveKpiImpactCommand, SuccessResponse> {
  constructor(
    private readonly db: DataSource,
    private readonly scope: InitiativeScope,
  ) {}

  async execute({ actor, initiativeId, impactId }: RemoveKpiImpactCommand): Promise<SuccessResponse> {
    await this.db.transaction(async (m) => {
      const ini = await this.scope.readable(actor, initiativeId, m, true);
      const [impact] = await readKpiImpacts(m, actor.orgId, ini.id, await this.scope.visibility(actor), impactId);
      if (!impact) throw Errors.notFound('KPI impact not found');
      await this.scope.assertInitiativeWrite(actor, ini);
      await m.query('DELETE FROM initiative_kpi_impacts WHERE org_id = $1 AND initiative_id = $2 AND id = $3', [actor.orgId, ini.id, impactId]);
    });
    return { success: true };
  }
}
