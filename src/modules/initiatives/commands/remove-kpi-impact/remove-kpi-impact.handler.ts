import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Errors } from '../../../../common/errors/domain-error';
import { InitiativeScope } from '../../initiative-scope.service';
import { toKpiImpacts } from '../../initiatives.mapper';
import { InitiativesRepository } from '../../initiatives.repository';
import type { SuccessResponse } from '../../initiatives.response';
import { RemoveKpiImpactCommand } from './remove-kpi-impact.command';
import { TxRunner } from '../../../../database/tx-runner';

/** Initiative write rule; an impact on a KPI the caller cannot read is concealed (404). */
@CommandHandler(RemoveKpiImpactCommand)
export class RemoveKpiImpactHandler implements ICommandHandler<RemoveKpiImpactCommand, SuccessResponse> {
  constructor(
    private readonly tx: TxRunner,
    private readonly scope: InitiativeScope,
    private readonly initiatives: InitiativesRepository,
  ) {}

  async execute({ actor, initiativeId, impactId }: RemoveKpiImpactCommand): Promise<SuccessResponse> {
    await this.tx.run(async (m) => {
      const ini = await this.scope.readable(actor, initiativeId, m, true);
      const [impact] = toKpiImpacts(await this.initiatives.kpiImpacts(actor.orgId, ini.id, impactId, m), await this.scope.visibility(actor));
      if (!impact) throw Errors.notFound('KPI impact not found');
      await this.scope.assertInitiativeWrite(actor, ini, m);
      await this.initiatives.deleteKpiImpact(actor.orgId, ini.id, impactId, m);
    });
    return { success: true };
  }
}
