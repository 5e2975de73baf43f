import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DomainError } from '../../../../common/errors/domain-error';
import { toRunner } from '../../runners.mapper';
import { RunnersRepository } from '../../runners.repository';
import type { RunnerEnvelope } from '../../runners.response';
import { GetRunnerSelfQuery } from './get-runner-self.query';

/** The agent's current installation with its computed presence (404 RUNNER_NOT_REGISTERED before the first PUT). */
@QueryHandler(GetRunnerSelfQuery)
export class GetRunnerSelfHandler implements IQueryHandler<GetRunnerSelfQuery, RunnerEnvelope> {
  constructor(private readonly runners: RunnersRepository) {}

  async execute({ actor }: GetRunnerSelfQuery): Promise<RunnerEnvelope> {
    const cur = await this.runners.current(actor.orgId, actor.memberId);
    if (!cur) throw new DomainError(404, 'RUNNER_NOT_REGISTERED', 'This agent has no runner installation');
    return { runner: toRunner(cur) };
  }
}
