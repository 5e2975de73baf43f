import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError, Errors } from '../../../../common/errors/domain-error';
import { attentionEnvelope } from '../../attention-writes';
import { AttentionRepository } from '../../attention.repository';
import { ExecutionAccess } from '../../execution-access.service';
import { executionConflict, isTerminal, STATES_THAT_CAN_RAISE_ATTENTION } from '../../execution-rules';
import { ExecutionWriter } from '../../execution-writer.service';
import { ExecutionsRepository } from '../../executions.repository';
import type { AttentionEnvelope } from '../../executions.response';
import { type Answer, IdempotentWrites } from '../../idempotent-writes.service';
import { CreateAttentionCommand } from './create-attention.command';

/**
 * The execution's own agent (403 `ATTENTION_REQUESTER_REQUIRED`) with edit access raises a request
 * from `assigned`, `running` or `waiting`; the execution moves to `needs_human` in the same
 * transaction. One open request per execution (409 `ATTENTION_ALREADY_OPEN`).
 */
@CommandHandler(CreateAttentionCommand)
export class CreateAttentionHandler implements ICommandHandler<CreateAttentionCommand, Answer<AttentionEnvelope>> {
  constructor(
    private readonly guard: ExecutionAccess,
    private readonly executions: ExecutionsRepository,
    private readonly attention: AttentionRepository,
    private readonly writer: ExecutionWriter,
    private readonly idem: IdempotentWrites,
  ) {}

  async execute({ actor, executionId, dto }: CreateAttentionCommand): Promise<Answer<AttentionEnvelope>> {
    const row = await this.guard.write(actor, executionId);
    if (actor.memberId !== row.agent_member_id)
      throw new DomainError(403, 'ATTENTION_REQUESTER_REQUIRED', "Only the execution's agent can raise an attention request");
    const title = dto.title.trim();
    const question = dto.question.trim();
    const options = (dto.options ?? []).map((o) => o.trim());
    if (!title || !question || options.some((o) => !o)) throw Errors.validation('title, question and options must not be blank');
    return this.idem.run(actor, `attention.create:${row.id}`, dto.idempotency_key, { ...dto, title, question, options }, async (m) => {
      const cur = await this.executions.lock(actor.orgId, row.id, m);
      if (cur?.state === 'needs_human') throw executionConflict('ATTENTION_ALREADY_OPEN', 'The execution already waits on an open attention request');
      if (cur && isTerminal(cur.state)) throw executionConflict('EXECUTION_TERMINAL', `The execution is ${cur.state}`);
      if (dto.expected_state_version !== undefined && cur && cur.state_version !== dto.expected_state_version) {
        throw executionConflict('STALE_STATE_VERSION', 'expected_state_version is stale', { current_state_version: cur.state_version });
      }
      const id = randomUUID();
      await this.attention.insert(actor.orgId, { id, executionId: row.id, requesterMemberId: actor.memberId, title, question, options }, m);
      await this.writer.move(m, actor, row.id, 'needs_human', {
        via: 'attention',
        check: (from) => {
          if (!STATES_THAT_CAN_RAISE_ATTENTION.includes(from)) throw executionConflict('EXECUTION_TRANSITION_NOT_ALLOWED', `${from} cannot raise attention`);
        },
      });
      return { status: 201, body: await attentionEnvelope(this.attention, this.executions, m, actor.orgId, id) };
    });
  }
}
