import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { Errors } from '../../../../common/errors/domain-error';
import { isUuid } from '../../../../common/http/validation';
import { parseIntakeBody } from '../../runner-rules';
import { RunnerVisibility } from '../../runner-visibility.service';
import { toRunner } from '../../runners.mapper';
import { RunnersRepository } from '../../runners.repository';
import type { RunnerEnvelope } from '../../runners.response';
import { SetRunnerIntakeCommand } from './set-runner-intake.command';

/** A human manager pauses or resumes intake; a same-state write is a no-op with no history row. */
@CommandHandler(SetRunnerIntakeCommand)
export class SetRunnerIntakeHandler implements ICommandHandler<SetRunnerIntakeCommand, RunnerEnvelope> {
  constructor(
    private readonly db: DataSource,
    private readonly runners: RunnersRepository,
    private readonly visibility: RunnerVisibility,
  ) {}

  async execute({ actor, runnerId, body }: SetRunnerIntakeCommand): Promise<RunnerEnvelope> {
    const agents = await this.visibility.manageableAgents(actor);
    const runner = isUuid(runnerId) ? await this.runners.find(actor.orgId, runnerId.toLowerCase()) : null;
    if (!runner || (agents !== null && !agents.includes(runner.agent_member_id))) throw Errors.notFound('Runner not found');
    const to = parseIntakeBody(body);
    await this.db.transaction((m) => this.runners.setIntake(actor.orgId, runner.id, to, actor.memberId, randomUUID(), m));
    return { runner: toRunner((await this.runners.find(actor.orgId, runner.id))!) };
  }
}
