import type { Actor } from '../../../../common/auth/principal';
import type { CreateKpiDto } from './create-kpi.dto';

export class CreateKpiCommand {
  constructor(
    readonly actor: Actor,
    readonly dto: CreateKpiDto,
  ) {}
}
