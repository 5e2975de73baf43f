import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ExecutionAccess } from '../../execution-access.service';
import { toAttention } from '../../executions.mapper';
import type { AttentionEnvelope } from '../../executions.response';
import { GetAttentionQuery } from './get-attention.query';

/** One attention item (404 when its issue is unreadable). */
@QueryHandler(GetAttentionQuery)
export class GetAttentionHandler implements IQueryHandler<GetAttentionQuery, AttentionEnvelope> {
  constructor(private readonly guard: ExecutionAccess) {}

  async execute({ actor, itemId }: GetAttentionQuery): Promise<AttentionEnvelope> {
    const { item } = await this.guard.readItem(actor, itemId);
    return { attention_item: toAttention(item) };
  }
}
