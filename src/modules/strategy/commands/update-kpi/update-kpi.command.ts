import type { Actor } from '../../../../common/auth/principal';
import type { UpdateKpiDto } from './update-kpi.dto';

export class UpdateKpiCommand {
  constructor(
    readonly actor: Actor,
    readonly kpiId: string,
    readonly dto: UpdateKpiDto,
  ) {}
}
