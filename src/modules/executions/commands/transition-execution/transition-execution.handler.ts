import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError, Errors } from '../../../../common/errors/domain-error';
import { AttentionRepository } from '../../attention.repository';
import { ExecutionAccess } from '../../execution-access.service';
import { type ExecutionState, executionConflict, GENERIC_TO_STATES, genericMoveAllowed } from '../../execution-rules';
import { ExecutionWriter } from '../../execution-writer.service';
import { toExecution } from '../../executions.mapper';
import { ExecutionsRepository } from '../../executions.repository';
import type { ExecutionEnvelope } from '../../executions.response';
import { type Answer, IdempotentWrites } from '../../idempotent-writes.service';
import { TransitionExecutionCommand } from './transition-execution.command';

/**
 * A generic, version-fenced move (see the state machine in execution-rules.ts). Into or out of
 * `needs_human`: 409 `ATTENTION_CONTRACT_REQUIRED`. Not a listed move: 409
 * `EXECUTION_TRANSITION_NOT_ALLOWED`; terminal: 409 `EXECUTION_TERMINAL`; stale version: 409
 * `STALE_STATE_VERSION`. Movers: the execution's own agent, or a human with edit access;
 * `waiting` → `running` only by the live requesting agent (403 `EXECUTION_AGENT_REQUIRED`), which
 * consumes its unread resolved answers.
 */
@CommandHandler(TransitionExecutionCommand)
export class TransitionExecutionHandler implements ICommandHandler<TransitionExecutionCommand, Answer<ExecutionEnvelope>> {
  constructor(
    private readonly guard: ExecutionAccess,
    private readonly executions: ExecutionsRepository,
    private readonly attention: AttentionRepository,
    private readonly writer: ExecutionWriter,
    private readonly idem: IdempotentWrites,
  ) {}

  async execute({ actor, executionId, dto }: TransitionExecutionCommand): Promise<Answer<ExecutionEnvelope>> {
    const row = await this.guard.write(actor, executionId);
    if (dto.to_state === 'needs_human') {
      throw executionConflict('ATTENTION_CONTRACT_REQUIRED', 'needs_human is entered by raising an attention request, never by a generic transition');
    }
    if (!(GENERIC_TO_STATES as readonly string[]).includes(dto.to_state)) {
      throw Errors.validation(`to_state must be one of ${GENERIC_TO_STATES.join(', ')}`);
    }
    const isOwnAgent = actor.memberId === row.agent_member_id;
    if (!isOwnAgent && !actor.isHuman)
      throw new DomainError(403, 'EXECUTION_AGENT_REQUIRED', "Only the execution's agent or a human with edit access can move it");
    const to = dto.to_state as ExecutionState;
    return this.idem.run(actor, `execution.transition:${row.id}`, dto.idempotency_key, dto, async (m) => {
      const moved = await this.writer.move(m, actor, row.id, to, {
        expectedVersion: dto.expected_state_version,
        via: 'transition',
        texts: { reason: dto.reason, summary: dto.summary, outcome: dto.outcome, failure: dto.failure },
        check: (from) => {
          if (from === 'needs_human') {
            throw executionConflict('ATTENTION_CONTRACT_REQUIRED', 'needs_human is left only when its attention request is resolved or cancelled');
          }
          if (!genericMoveAllowed(from, to)) {
            throw executionConflict('EXECUTION_TRANSITION_NOT_ALLOWED', `${from} cannot move to ${to}`, { from_state: from, to_state: to });
          }
          if (from === 'waiting' && to === 'running' && !isOwnAgent) {
            throw new DomainError(403, 'EXECUTION_AGENT_REQUIRED', 'waiting → running is done by the live requesting agent');
          }
        },
      });
      if (moved.from === 'waiting' && to === 'running') await this.attention.consumeReceipts(actor.orgId, row.id, actor.memberId, m);
      const after = (await this.executions.find(actor.orgId, row.id, m))!;
      return { status: 200, body: { execution: toExecution(after) } };
    });
  }
}
