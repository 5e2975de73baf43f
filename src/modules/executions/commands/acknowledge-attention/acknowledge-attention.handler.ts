import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource, type EntityManager } from 'typeorm';
import { attentionEnvelope, lockItem } from '../../attention-writes';
import { AttentionRepository } from '../../attention.repository';
import { ExecutionAccess } from '../../execution-access.service';
import { executionConflict } from '../../execution-rules';
import { ExecutionsRepository } from '../../executions.repository';
import type { AttentionEnvelope } from '../../executions.response';
import { type Answer, IdempotentWrites } from '../../idempotent-writes.service';
import { AcknowledgeAttentionCommand } from './acknowledge-attention.command';

/**
 * The live requesting agent, with current read access to the project, takes the receipt
 * of a resolved answer (version-fenced: 409 `STALE_ATTENTION_VERSION`; not resolved: 409
 * `ATTENTION_NOT_RESOLVED`). It leaves `resolved_unread`; the execution does not move. An already
 * acknowledged item at the sent version answers 200 unchanged.
 */
@CommandHandler(AcknowledgeAttentionCommand)
export class AcknowledgeAttentionHandler implements ICommandHandler<AcknowledgeAttentionCommand, Answer<AttentionEnvelope>> {
  constructor(
    private readonly db: DataSource,
    private readonly guard: ExecutionAccess,
    private readonly executions: ExecutionsRepository,
    private readonly attention: AttentionRepository,
    private readonly idem: IdempotentWrites,
  ) {}

  async execute({ actor, itemId, dto }: AcknowledgeAttentionCommand): Promise<Answer<AttentionEnvelope>> {
    const item = await this.guard.requesterItem(actor, itemId);
    const work = async (m: EntityManager): Promise<Answer<AttentionEnvelope>> => {
      const cur = await lockItem(this.attention, m, actor.orgId, item.id, 'resolved', dto.expected_version);
      if (cur.acknowledged_at === null && !(await this.attention.acknowledge(actor.orgId, item.id, cur.version, m))) {
        throw executionConflict('STALE_ATTENTION_VERSION', 'The attention item changed concurrently');
      }
      return { status: 200, body: await attentionEnvelope(this.attention, this.executions, m, actor.orgId, item.id) };
    };
    if (dto.idempotency_key) return this.idem.run(actor, `attention.ack:${item.id}`, dto.idempotency_key, dto, work);
    return this.db.transaction(work);
  }
}
