import { DomainError, Errors } from '../../common/errors/domain-error';
import { RESUME_ACTION } from './runner-rules';

/** The attention notification an attention claim names (a row of the caller's own, visible notifications). */
export interface AttentionNotice {
  id: string;
  event_type: string;
  action_kind: string;
  issue_id: string | null;
  metadata: Record<string, unknown> | null;
  acknowledged_at: Date | string | null;
}

/** What the claim sends and what the service knows of the claiming installation. */
export interface AttentionClaimRouting {
  issueId: string;
  actionKind: string;
  runnerHostId: string;
  preservedThreadId: string;
  /** The claiming installation's registered `host_id` (null when it registered none). */
  installationHostId: string | null;
  /**
   * A workflow verification's binding: the routing of the agent's own delivery lease on the issue
   * (LeasesRepository.deliveryRouting; null: it has none). A verification notice carries no thread
   * identifier (interface.md), so its resume is bound through the run that delivered the change.
   */
  deliveryRouting?: { hostId: string | null; threadId: string } | null;
}

/** The event type of a workflow verification (built with the GitHub connection, not here). */
export const VERIFICATION_COMPLETED = 'verification.completed';
export const HUMAN_ATTENTION_RESOLVED = 'attention.resolved';

const str = (v: unknown): string | null => (typeof v === 'string' && v.length ? v : null);
const obj = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

export const attentionErrors = {
  sourceMismatch: (why: string) => Errors.conflict(why, 'RUNNER_ATTENTION_SOURCE_MISMATCH'),
  hostMismatch: (why: string) => Errors.conflict(why, 'RUNNER_ATTENTION_HOST_MISMATCH'),
  threadMismatch: (why: string) => Errors.conflict(why, 'RUNNER_ATTENTION_THREAD_MISMATCH'),
  bindingMismatch: (why: string) => new DomainError(409, 'RUNNER_LEASE_VERIFICATION_BINDING_MISMATCH', why),
};

/** The workflow verification a `verification.completed` notice names (`metadata.verification.verificationEventId`), or null. */
export const verificationEventOf = (n: AttentionNotice): string | null => {
  const v = obj(obj(n.metadata).verification);
  return str(v.verificationEventId) ?? str(v.verification_event_id);
};

/**
 * The checks common to every attention claim, on its notice: about the claimed issue (409
 * RUNNER_ATTENTION_SOURCE_MISMATCH); the claim's `actionKind` is the notice's and resumes a thread
 * (409 RUNNER_ATTENTION_ACTION_MISMATCH); still unread (409 RUNNER_ATTENTION_ALREADY_READ).
 */
export function checkNotice(n: AttentionNotice, issueId: string, actionKind: string): void {
  if (n.issue_id !== issueId) throw attentionErrors.sourceMismatch('The attention notification is about another issue');
  if (n.action_kind !== actionKind || actionKind !== RESUME_ACTION) {
    throw Errors.conflict(
      `The attention notification asks for ${n.action_kind}; only ${RESUME_ACTION} is resumed by a runner`,
      'RUNNER_ATTENTION_ACTION_MISMATCH',
    );
  }
  if (n.acknowledged_at !== null) throw Errors.conflict('The attention notification was already read', 'RUNNER_ATTENTION_ALREADY_READ');
}

/**
 * Host and thread routing of a notification-routed resume (a reply to the agent's own comment, or a
 * workflow verification): `runnerHostId` is the claiming installation's registered host (when it
 * registered one) and the notice's routed `host_id` (when it carries one), else 409
 * RUNNER_ATTENTION_HOST_MISMATCH; `preservedThreadId` is the notice's routed `thread_id` (or
 * `session_id`), else 409 RUNNER_ATTENTION_THREAD_MISMATCH — a notice without thread routing cannot
 * be resumed (no new-thread fallback). A `verification.completed` notice must name its verification
 * event, and the agent's own delivery lease on the issue (`deliveryRouting`: the thread that made the
 * change, and its host) must be exactly this host and thread; any missing or different identity is 409
 * RUNNER_LEASE_VERIFICATION_BINDING_MISMATCH (the resume is bound to another run; the notice stays
 * unread and review-only). Answers the verification event id the lease is bound to (or null).
 */
export function checkNoticeRouting(n: AttentionNotice, c: AttentionClaimRouting): { verificationEventId: string | null } {
  const verification = n.event_type === VERIFICATION_COMPLETED;
  const routing =
    verification && c.deliveryRouting !== undefined
      ? { host_id: c.deliveryRouting?.hostId ?? null, thread_id: c.deliveryRouting?.threadId ?? null }
      : obj(obj(n.metadata).routing);
  const verificationEventId = verification ? verificationEventOf(n) : null;
  if (verification && !verificationEventId) throw attentionErrors.bindingMismatch('The verification names no verification event; it stays review-only');
  const host = verification ? attentionErrors.bindingMismatch : attentionErrors.hostMismatch;
  const thread = verification ? attentionErrors.bindingMismatch : attentionErrors.threadMismatch;
  if (c.installationHostId !== null && c.installationHostId !== c.runnerHostId) throw host("runnerHostId is not the runner installation's host");
  const routedHost = str(routing.host_id);
  // a delivery lease without a recorded host binds by its thread alone (the installation check above still holds)
  const hostBound = verification ? routedHost !== null || c.deliveryRouting === undefined : routedHost !== null;
  if (hostBound && routedHost !== c.runnerHostId) throw host('The attention is routed to another host');
  const routedThread = str(routing.thread_id) ?? str(routing.session_id);
  if (routedThread === null) throw thread('The attention carries no thread routing; it cannot resume a thread');
  if (routedThread !== c.preservedThreadId) throw thread('The attention is routed to another thread');
  return { verificationEventId };
}

/**
 * A human-attention notice (`attention.resolved`) names the claimed execution and attention item
 * in its metadata, else 409 RUNNER_ATTENTION_SOURCE_MISMATCH.
 */
export function checkHumanAttentionNotice(n: AttentionNotice, executionId: string, itemId: string): void {
  const m = obj(n.metadata);
  if (n.event_type !== HUMAN_ATTENTION_RESOLVED || m.execution_id !== executionId || m.attention_item_id !== itemId) {
    throw attentionErrors.sourceMismatch('The attention notification is not the answer to this execution and attention item');
  }
}
