import type { Actor } from '../../../../common/auth/principal';
import type { CancelExecutionDto } from './cancel-execution.dto';

export class CancelExecutionCommand {
  constructor(
    readonly actor: Actor,
    readonly executionId: string,
    readonly dto: CancelExecutionDto,
  ) {}
}
