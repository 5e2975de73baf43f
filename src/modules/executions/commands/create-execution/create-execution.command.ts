import type { Actor } from '../../../../common/auth/principal';
import type { CreateExecutionDto } from './create-execution.dto';

export class CreateExecutionCommand {
  constructor(
    readonly actor: Actor,
    readonly dto: CreateExecutionDto,
  ) {}
}
