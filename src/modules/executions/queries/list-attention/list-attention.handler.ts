import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AttentionRepository } from '../../attention.repository';
import { ExecutionAccess } from '../../execution-access.service';
import { toAttention } from '../../executions.mapper';
import type { AttentionListResponse } from '../../executions.response';
import { ListAttentionQuery } from './list-attention.query';

/** Attention requests of one execution (readers of its issue), oldest first. */
@QueryHandler(ListAttentionQuery)
export class ListAttentionHandler implements IQueryHandler<ListAttentionQuery, AttentionListResponse> {
  constructor(
    private readonly guard: ExecutionAccess,
    private readonly attention: AttentionRepository,
  ) {}

  async execute({ actor, executionId }: ListAttentionQuery): Promise<AttentionListResponse> {
    const { row } = await this.guard.read(actor, executionId);
    const items = await this.attention.listOfExecution(actor.orgId, row.id);
    return { attention_items: items.map(toAttention), total: items.length };
  }
}
