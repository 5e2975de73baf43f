import { randomUUID } from 'node:crypto';
import { DomainError } from '../../src/common/errors/domain-error';
import {
  type AttentionNotice,
  checkHumanAttentionNotice,
  checkNotice,
  checkNoticeRouting,
  VERIFICATION_COMPLETED,
} from '../../src/modules/runners/attention-routing';

/**
 * The routing rules of runner attention claims (issue 15) as pure functions, including the
 * `verification.completed` binding that the verified workflow resume will route through (its
 * notifications are not produced in this codebase yet, so the e2e tests cannot reach it).
 */
describe('attention claim routing', () => {
  const issueId = randomUUID();
  const notice = (over: Partial<AttentionNotice> = {}): AttentionNotice => ({
    id: randomUUID(),
    event_type: 'comment.added',
    action_kind: 'resume_agent_thread',
    issue_id: issueId,
    metadata: { routing: { harness: 'codex', thread_id: 'th-1', host_id: 'host-a' } },
    acknowledged_at: null,
    ...over,
  });
  const claim = { issueId, actionKind: 'resume_agent_thread', runnerHostId: 'host-a', preservedThreadId: 'th-1', installationHostId: 'host-a' };
  const code = (f: () => unknown): string | null => {
    try {
      f();
      return null;
    } catch (e) {
      expect(e).toBeInstanceOf(DomainError);
      return `${(e as DomainError).status} ${(e as DomainError).code}`;
    }
  };

  it('notice: issue, action kind, unread', () => {
    expect(code(() => checkNotice(notice(), issueId, 'resume_agent_thread'))).toBeNull();
    expect(code(() => checkNotice(notice(), randomUUID(), 'resume_agent_thread'))).toBe('409 RUNNER_ATTENTION_SOURCE_MISMATCH');
    expect(code(() => checkNotice(notice({ action_kind: 'review_issue' }), issueId, 'review_issue'))).toBe('409 RUNNER_ATTENTION_ACTION_MISMATCH');
    expect(code(() => checkNotice(notice(), issueId, 'start_work'))).toBe('409 RUNNER_ATTENTION_ACTION_MISMATCH');
    expect(code(() => checkNotice(notice({ acknowledged_at: new Date() }), issueId, 'resume_agent_thread'))).toBe('409 RUNNER_ATTENTION_ALREADY_READ');
  });

  it('comment routing: installation host, routed host (when routed), routed thread or session (required)', () => {
    expect(checkNoticeRouting(notice(), claim)).toEqual({ verificationEventId: null });
    expect(code(() => checkNoticeRouting(notice(), { ...claim, installationHostId: 'host-b' }))).toBe('409 RUNNER_ATTENTION_HOST_MISMATCH');
    expect(code(() => checkNoticeRouting(notice(), { ...claim, runnerHostId: 'host-b', installationHostId: null }))).toBe('409 RUNNER_ATTENTION_HOST_MISMATCH');
    expect(code(() => checkNoticeRouting(notice({ metadata: { routing: { thread_id: 'th-1' } } }), { ...claim, installationHostId: null }))).toBeNull();
    expect(code(() => checkNoticeRouting(notice({ metadata: { routing: { session_id: 'th-1' } } }), claim))).toBeNull();
    expect(code(() => checkNoticeRouting(notice(), { ...claim, preservedThreadId: 'th-2' }))).toBe('409 RUNNER_ATTENTION_THREAD_MISMATCH');
    expect(code(() => checkNoticeRouting(notice({ metadata: {} }), claim))).toBe('409 RUNNER_ATTENTION_THREAD_MISMATCH');
    expect(code(() => checkNoticeRouting(notice({ metadata: null }), claim))).toBe('409 RUNNER_ATTENTION_THREAD_MISMATCH');
  });

  it('verification.completed: bound to its verification event, host and thread; any other run is RUNNER_LEASE_VERIFICATION_BINDING_MISMATCH', () => {
    const v = (metadata: Record<string, unknown>) => notice({ event_type: VERIFICATION_COMPLETED, metadata });
    const bound = { verification: { verificationEventId: 'vev-1' }, routing: { thread_id: 'th-1', host_id: 'host-a' } };
    expect(checkNoticeRouting(v(bound), claim)).toEqual({ verificationEventId: 'vev-1' });
    const mismatch = '409 RUNNER_LEASE_VERIFICATION_BINDING_MISMATCH';
    expect(code(() => checkNoticeRouting(v({ ...bound, verification: {} }), claim))).toBe(mismatch);
    expect(code(() => checkNoticeRouting(v({ routing: bound.routing }), claim))).toBe(mismatch);
    expect(code(() => checkNoticeRouting(v(bound), { ...claim, preservedThreadId: 'th-2' }))).toBe(mismatch);
    expect(code(() => checkNoticeRouting(v(bound), { ...claim, runnerHostId: 'host-b', installationHostId: null }))).toBe(mismatch);
    expect(code(() => checkNoticeRouting(v({ ...bound, routing: { thread_id: 'th-1' } }), claim))).toBe(mismatch);
    expect(code(() => checkNoticeRouting(v(bound), { ...claim, installationHostId: 'host-b' }))).toBe(mismatch);
  });

  it('human-attention answer: names the execution and the item', () => {
    const ex = randomUUID();
    const item = randomUUID();
    const answer = notice({ event_type: 'attention.resolved', metadata: { execution_id: ex, attention_item_id: item, attention_version: 2 } });
    expect(code(() => checkHumanAttentionNotice(answer, ex, item))).toBeNull();
    expect(code(() => checkHumanAttentionNotice(answer, randomUUID(), item))).toBe('409 RUNNER_ATTENTION_SOURCE_MISMATCH');
    expect(code(() => checkHumanAttentionNotice(answer, ex, randomUUID()))).toBe('409 RUNNER_ATTENTION_SOURCE_MISMATCH');
    expect(code(() => checkHumanAttentionNotice(notice(), ex, item))).toBe('409 RUNNER_ATTENTION_SOURCE_MISMATCH');
  });
});
