import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource, type EntityManager } from 'typeorm';
import { attentionEnvelope, lockItem } from '../../attention-writes';
import { AttentionRepository } from '../../attention.repository';
import { ExecutionAccess } from '../../execution-access.service';
import { executionConflict } from '../../execution-rules';
import { ExecutionWriter } from '../../execution-writer.service';
import { ExecutionsRepository } from '../../executions.repository';
import type { AttentionEnvelope } from '../../executions.response';
import { type Answer, IdempotentWrites } from '../../idempotent-writes.service';
import { CancelAttentionCommand } from './cancel-attention.command';

/** The requesting agent withdraws its open request (409 `ATTENTION_NOT_OPEN` otherwise); the execution returns to `waiting`. */
@CommandHandler(CancelAttentionCommand)
export class CancelAttentionHandler implements ICommandHandler<CancelAttentionCommand, Answer<AttentionEnvelope>> {
  constructor(
    private readonly db: DataSource,
    private readonly guard: ExecutionAccess,
    private readonly executions: ExecutionsRepository,
    private readonly attention: AttentionRepository,
    private readonly writer: ExecutionWriter,
    private readonly idem: IdempotentWrites,
  ) {}

  async execute({ actor, itemId, dto }: CancelAttentionCommand): Promise<Answer<AttentionEnvelope>> {
    const item = await this.guard.requesterItem(actor, itemId);
    const work = async (m: EntityManager): Promise<Answer<AttentionEnvelope>> => {
      const cur = await lockItem(this.attention, m, actor.orgId, item.id, 'open', dto.expected_version);
      if (!(await this.attention.cancel(actor.orgId, item.id, cur.version, m)))
        throw executionConflict('STALE_ATTENTION_VERSION', 'The attention item changed concurrently');
      await this.writer.move(m, actor, item.execution_id, 'waiting', { via: 'attention' });
      return { status: 200, body: await attentionEnvelope(this.attention, this.executions, m, actor.orgId, item.id) };
    };
    if (dto.idempotency_key) return this.idem.run(actor, `attention.cancel:${item.id}`, dto.idempotency_key, dto, work);
    return this.db.transaction(work);
  }
}
