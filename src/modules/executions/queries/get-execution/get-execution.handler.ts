import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ExecutionAccess } from '../../execution-access.service';
import { toExecution } from '../../executions.mapper';
import { ExecutionsRepository } from '../../executions.repository';
import type { ExecutionEnvelope } from '../../executions.response';
import { GetExecutionQuery } from './get-execution.query';

/** Detail with ordered transitions and evidence references (404 when the issue is unreadable). */
@QueryHandler(GetExecutionQuery)
export class GetExecutionHandler implements IQueryHandler<GetExecutionQuery, ExecutionEnvelope> {
  constructor(
    private readonly guard: ExecutionAccess,
    private readonly executions: ExecutionsRepository,
  ) {}

  async execute({ actor, executionId }: GetExecutionQuery): Promise<ExecutionEnvelope> {
    const { row } = await this.guard.read(actor, executionId);
    const [transitions, evidence] = await Promise.all([this.executions.transitions(actor.orgId, row.id), this.executions.evidence(actor.orgId, row.id)]);
    return { execution: toExecution(row, { transitions, evidence }) };
  }
}
