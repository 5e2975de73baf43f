import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { toRunner } from '../../runners.mapper';
import { RunnersRepository } from '../../runners.repository';
import type { RunnerDisconnectResponse } from '../../runners.response';
import { DeleteRunnerSelfCommand } from './delete-runner-self.command';

/** Explicit disconnect (idempotent): the installation reads `offline`; it cannot claim, mutate or replay until a PUT reconnects it. */
@CommandHandler(DeleteRunnerSelfCommand)
export class DeleteRunnerSelfHandler implements ICommandHandler<DeleteRunnerSelfCommand, RunnerDisconnectResponse> {
  constructor(private readonly runners: RunnersRepository) {}

  async execute({ actor }: DeleteRunnerSelfCommand): Promise<RunnerDisconnectResponse> {
    await this.runners.disconnect(actor.orgId, actor.memberId);
    const cur = await this.runners.current(actor.orgId, actor.memberId);
    return { success: true, runner: cur ? toRunner(cur) : null };
  }
}
