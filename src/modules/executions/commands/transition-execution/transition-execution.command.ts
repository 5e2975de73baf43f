import type { Actor } from '../../../../common/auth/principal';
import type { TransitionExecutionDto } from './transition-execution.dto';

export class TransitionExecutionCommand {
  constructor(
    readonly actor: Actor,
    readonly executionId: string,
    readonly dto: TransitionExecutionDto,
  ) {}
}
