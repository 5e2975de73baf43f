import type { EntityManager } from 'typeorm';
import type { Actor } from '../../common/auth/principal';
import type { ExecutionState } from '../executions/execution-rules';
import type { ExecutionWriter } from '../executions/execution-writer.service';

/**
 * Keeps the lease's linked execution in step with the lease, through the execution state machine
 * (never around it): `started` → running; `completed` / `failed` → running first when needed, then
 * the outcome; `aborted` / `orphaned` → cancelled. An execution moved elsewhere meanwhile (terminal,
 * or waiting on a human) is left as it is.
 */
export async function syncExecution(
  m: EntityManager,
  writer: ExecutionWriter,
  actor: Actor,
  executionId: string | null,
  target: ExecutionState,
): Promise<void> {
  if (!executionId) return;
  const steps: Record<string, Partial<Record<ExecutionState, ExecutionState[]>>> = {
    running: { assigned: ['running'], waiting: ['running'] },
    completed: { assigned: ['running', 'completed'], waiting: ['running', 'completed'], running: ['completed'] },
    failed: { assigned: ['running', 'failed'], waiting: ['running', 'failed'], running: ['failed'] },
    cancelled: { assigned: ['cancelled'], waiting: ['cancelled'], running: ['cancelled'], needs_human: ['cancelled'] },
  };
  // one lock, then each step (the writer knows the state and version it moved to)
  await writer.moveAlong(m, actor, executionId, (from) => steps[target]?.[from] ?? []);
}
