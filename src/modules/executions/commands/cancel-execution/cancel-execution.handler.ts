import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource, type EntityManager } from 'typeorm';
import { DomainError } from '../../../../common/errors/domain-error';
import { AttentionRepository } from '../../attention.repository';
import { ExecutionAccess } from '../../execution-access.service';
import { ExecutionWriter } from '../../execution-writer.service';
import { toExecution } from '../../executions.mapper';
import { ExecutionsRepository } from '../../executions.repository';
import type { ExecutionEnvelope } from '../../executions.response';
import { type Answer, IdempotentWrites } from '../../idempotent-writes.service';
import { CancelExecutionCommand } from './cancel-execution.command';

/**
 * Any non-terminal state → `cancelled` (open attention requests are cancelled in the same
 * transaction); a terminal execution is 409 `EXECUTION_TERMINAL`. The execution's agent or a human
 * with edit access.
 */
@CommandHandler(CancelExecutionCommand)
export class CancelExecutionHandler implements ICommandHandler<CancelExecutionCommand, Answer<ExecutionEnvelope>> {
  constructor(
    private readonly db: DataSource,
    private readonly guard: ExecutionAccess,
    private readonly executions: ExecutionsRepository,
    private readonly attention: AttentionRepository,
    private readonly writer: ExecutionWriter,
    private readonly idem: IdempotentWrites,
  ) {}

  async execute({ actor, executionId, dto }: CancelExecutionCommand): Promise<Answer<ExecutionEnvelope>> {
    const row = await this.guard.write(actor, executionId);
    if (actor.memberId !== row.agent_member_id && !actor.isHuman) {
      throw new DomainError(403, 'EXECUTION_AGENT_REQUIRED', "Only the execution's agent or a human with edit access can cancel it");
    }
    const work = async (m: EntityManager): Promise<Answer<ExecutionEnvelope>> => {
      await this.writer.move(m, actor, row.id, 'cancelled', { expectedVersion: dto.expected_state_version, via: 'cancel', texts: { reason: dto.reason } });
      await this.attention.cancelOpenOfExecution(actor.orgId, row.id, m);
      return { status: 200, body: { execution: toExecution((await this.executions.find(actor.orgId, row.id, m))!) } };
    };
    if (dto.idempotency_key) return this.idem.run(actor, `execution.cancel:${row.id}`, dto.idempotency_key, dto, work);
    return this.db.transaction(work);
  }
}
