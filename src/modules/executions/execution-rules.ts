import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { Errors } from '../../common/errors/domain-error';
import { isSafeIdentifier } from '../../common/http/sensitive-values';

/**
 * The execution state machine (the database trigger `agent_executions_guard` enforces the same moves):
 *
 * | from          | to (generic transition)               | also                                    |
 * |---------------|---------------------------------------|-----------------------------------------|
 * | `assigned`    | `running`, `waiting`, `cancelled`     | attention raise → `needs_human`         |
 * | `running`     | `waiting`, `completed`, `failed`, `cancelled` | attention raise → `needs_human` |
 * | `waiting`     | `running` (the live requesting agent), `cancelled` | attention raise → `needs_human` |
 * | `needs_human` | (none: `ATTENTION_CONTRACT_REQUIRED`) | resolve/cancel of the item → `waiting`; cancel → `cancelled` |
 * | `completed`, `failed`, `cancelled` | terminal                  |                                         |
 */
export const EXECUTION_STATES = ['assigned', 'running', 'waiting', 'needs_human', 'completed', 'failed', 'cancelled'] as const;
export type ExecutionState = (typeof EXECUTION_STATES)[number];
/** The generic `to_state` values (no `needs_human`). */
export const GENERIC_TO_STATES = ['assigned', 'running', 'waiting', 'completed', 'failed', 'cancelled'] as const;
export const TERMINAL_STATES: readonly ExecutionState[] = ['completed', 'failed', 'cancelled'];
export const isTerminal = (s: string): boolean => (TERMINAL_STATES as readonly string[]).includes(s);

const GENERIC_MOVES: Record<ExecutionState, readonly ExecutionState[]> = {
  assigned: ['running', 'waiting', 'cancelled'],
  running: ['waiting', 'completed', 'failed', 'cancelled'],
  waiting: ['running', 'cancelled'],
  needs_human: [],
  completed: [],
  failed: [],
  cancelled: [],
};
export const genericMoveAllowed = (from: ExecutionState, to: ExecutionState): boolean => GENERIC_MOVES[from].includes(to);
export const STATES_THAT_CAN_RAISE_ATTENTION: readonly ExecutionState[] = ['assigned', 'running', 'waiting'];

export const EVIDENCE_LINK_TYPES = ['issue', 'comment', 'artifact', 'pr_link', 'external_reference', 'attachment'] as const;
export type EvidenceLinkType = (typeof EVIDENCE_LINK_TYPES)[number];

export const TEXT_LIMITS = { reason: 2000, summary: 4000, outcome: 4000, failure: 2000, title: 200, question: 4000, answer: 4000, option: 200 } as const;
export const MAX_OPTIONS = 10;
export const HARNESS_KIND_MAX = 64;
export const EXTERNAL_RUN_ID_MAX = 200;
export const IDEMPOTENCY_KEY_MAX = 200;

/** The harness kind the local runner records on the execution it links to each lease. */
export const SERVICE_LOCAL_RUNNER = 'service_local_runner';

/** 400 unless `v` is a safe identifier (no credential, token, path or control character). */
export function checkSafeIdentifier(field: string, v: string | null | undefined, max: number): string | null {
  if (v === undefined || v === null) return null;
  const s = v.trim();
  if (!s.length) throw Errors.validation(`${field} must not be empty`);
  if (s.length > max) throw Errors.validation(`${field} must be at most ${max} characters`);
  if (!isSafeIdentifier(s)) throw Errors.validation(`${field} must not contain credentials, tokens or local filesystem paths`, { field });
  return s;
}

/** Stored values read back: a legacy unsafe value shows as null. */
export const safeOrNull = (v: string | null): string | null => (v !== null && isSafeIdentifier(v) ? v : null);

/** SHA-256 of the canonical JSON of a request (never shown): tells an exact replay from a key reuse. */
export const requestHash = (body: unknown): string =>
  createHash('sha256')
    .update(canonicalize(body) ?? 'null')
    .digest('hex');

export const executionConflict = (code: string, message: string, extra?: Record<string, unknown>) => Errors.conflict(message, code, extra);
