import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { Errors } from '../../../../common/errors/domain-error';
import { isUniqueViolation } from '../../../../common/errors/pg-errors';
import { RateLimitService } from '../../../../common/rate-limit/rate-limit.service';
import { parseRunnerBody, RUNNER_REFRESH_LIMIT } from '../../runner-rules';
import { toRunner } from '../../runners.mapper';
import { RunnersRepository } from '../../runners.repository';
import type { RunnerEnvelope } from '../../runners.response';
import { PutRunnerSelfCommand } from './put-runner-self.command';

const conflict = () =>
  Errors.conflict('Another installation of this agent is connected; disconnect it or wait until it is stale', 'RUNNER_INSTALLATION_CONFLICT');

/**
 * Register or refresh the agent's runner installation. 60 per agent per minute on Redis (429
 * RATE_LIMITED; limiter down: 503 RATE_LIMIT_CHECK_FAILED, never an unlimited pass). The same
 * `instanceId` refreshes (and reconnects after DELETE); another one replaces the current
 * installation only when that one is stale or offline, else 409 RUNNER_INSTALLATION_CONFLICT. A
 * replaced installation never comes back (409).
 */
@CommandHandler(PutRunnerSelfCommand)
export class PutRunnerSelfHandler implements ICommandHandler<PutRunnerSelfCommand, { status: number; body: RunnerEnvelope }> {
  constructor(
    private readonly db: DataSource,
    private readonly runners: RunnersRepository,
    private readonly limits: RateLimitService,
  ) {}

  async execute({ actor, body }: PutRunnerSelfCommand): Promise<{ status: number; body: RunnerEnvelope }> {
    await this.limits.consume(RUNNER_REFRESH_LIMIT, `${actor.orgId}:${actor.memberId}`);
    const input = parseRunnerBody(body);
    // the common refresh of the current installation: one statement, no transaction
    const refreshed = await this.runners.refreshCurrent(actor.orgId, actor.memberId, input);
    if (refreshed) return { status: 200, body: { runner: toRunner(refreshed) } };
    try {
      return await this.db.transaction(async (m) => {
        await this.runners.lockAgent(actor.orgId, actor.memberId, m);
        const cur = await this.runners.lockCurrent(actor.orgId, actor.memberId, m);
        let id: string;
        let status = 200;
        if (cur && cur.instance_id === input.instanceId) {
          id = cur.id;
          await this.runners.refresh(actor.orgId, id, input, m);
        } else {
          if (cur?.presence_state === 'connected') throw conflict();
          if (cur) await this.runners.markReplaced(actor.orgId, cur.id, m);
          id = randomUUID();
          await this.runners.insert(actor.orgId, id, actor.memberId, input, m);
          status = 201;
        }
        return { status, body: { runner: toRunner((await this.runners.find(actor.orgId, id, m))!) } };
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw conflict();
      throw e;
    }
  }
}
