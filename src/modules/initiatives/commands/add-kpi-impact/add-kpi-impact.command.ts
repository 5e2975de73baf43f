import type { Actor } from '../../../../common/auth/principal';
import type { AddKpiImpactDto } from './add-kpi-impact.dto';

export class AddKpiImpactCommand {
  constructor(
    readonly actor: Actor,
    readonly initiativeId: string,
    readonly dto: AddKpiImpactDto,
  ) {}
}
