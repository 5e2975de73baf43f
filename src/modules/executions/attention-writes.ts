import type { EntityManager } from 'typeorm';
import { Errors } from '../../common/errors/domain-error';
import type { AttentionRepository, AttentionState } from './attention.repository';
import { executionConflict } from './execution-rules';
import type { ExecutionsRepository } from './executions.repository';
import type { AttentionEnvelope } from './executions.response';
import { toAttention } from './executions.mapper';

/** Locks an item and checks its state and (when given) version: 409 with the rule's code otherwise. */
export async function lockItem(
  repo: AttentionRepository,
  m: EntityManager,
  orgId: string,
  id: string,
  want: AttentionState,
  expectedVersion: number | undefined,
): Promise<{ version: number; execution_id: string; acknowledged_at: Date | null }> {
  const cur = await repo.lock(orgId, id, m);
  if (!cur) throw Errors.notFound('Attention item not found');
  if (cur.state !== want) {
    throw executionConflict(want === 'open' ? 'ATTENTION_NOT_OPEN' : 'ATTENTION_NOT_RESOLVED', `The attention item is ${cur.state}`, { state: cur.state });
  }
  if (expectedVersion !== undefined && expectedVersion !== cur.version) {
    throw executionConflict('STALE_ATTENTION_VERSION', 'expected_version is stale; reread the attention item and retry', { current_version: cur.version });
  }
  return cur;
}

/** `{ attention_item, execution: { id, state, state_version } }` as of now in `m`. */
export async function attentionEnvelope(
  attention: AttentionRepository,
  executions: ExecutionsRepository,
  m: EntityManager,
  orgId: string,
  itemId: string,
): Promise<AttentionEnvelope> {
  const item = (await attention.find(orgId, itemId, m))!;
  const ex = (await executions.find(orgId, item.execution_id, m))!;
  return { attention_item: toAttention(item), execution: { id: ex.id, state: ex.state, state_version: ex.state_version } };
}
