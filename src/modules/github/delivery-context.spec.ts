import { chooseLink } from './queries/get-delivery-context/get-delivery-context.handler';
import {
  buildDeliveryContext,
  type CheckRunObs,
  conclusionOutcome,
  type ContextInput,
  type Requirement,
  REQUIRED_CHECKS_CAP,
  type ReviewObs,
  type StatusObs,
} from './delivery-context';

const H = 'a'.repeat(40);
const OLD = 'b'.repeat(40);
const now = new Date('2026-01-01T12:00:00Z');
const at = (m: number) => new Date(now.getTime() - m * 60_000);

const input = (over: Partial<ContextInput> = {}): ContextInput => ({
  link: {
    id: 'l1',
    owner: 'octo',
    repo: 'widgets',
    pr_number: 7,
    pr_id: 99,
    github_repository_id: 77,
    pr_url: 'https://github.com/octo/widgets/pull/7',
    pr_title: 'T',
    pr_status: 'open',
    head_sha: H,
    base_ref: 'main',
    base_sha: null,
    head_history: [OLD],
    updated_at: at(5),
  },
  pr: null,
  reviews: { complete: true, items: [] },
  checkRuns: { complete: true, items: [] },
  statuses: { complete: true, items: [] },
  workflows: { complete: true, items: [] },
  requirements: null,
  verificationEnabled: false,
  now,
  source: 'provider',
  ...over,
});
const obs = { observed_at: at(1), provider_event_id: null };
const review = (id: number, who: number, state: string, head = H, min = 10): ReviewObs => ({
  id: String(id),
  reviewer_id: who,
  reviewer: `u${who}`,
  state,
  submitted_at: at(min),
  head_sha: head,
  ...obs,
});
const run = (name: string, conclusion: string | null, app: number | null = 1, status = 'completed', head = H, id = 1, min = 5): CheckRunObs => ({
  id: String(id),
  name,
  status,
  conclusion,
  app_id: app,
  updated_at: at(min),
  head_sha: head,
  ...obs,
});
const status = (context: string, state: string, min = 5, id = 1): StatusObs => ({ id: String(id), context, state, updated_at: at(min), head_sha: H, ...obs });
const req = (context: string, integration_id: number | null, source: 'classic' | 'ruleset'): Requirement => ({ context, integration_id, source });

describe('delivery context: link choice (rule 1)', () => {
  const l = (id: string, pr_status: string, min: number, pr_number: number) => ({ id, pr_status, updated_at: at(min), pr_number });
  it.each([
    ['open first', [l('a', 'closed', 1, 9), l('b', 'open', 50, 1)], 'b'],
    ['draft counts as open', [l('a', 'merged', 1, 9), l('b', 'draft', 50, 1)], 'b'],
    ['else latest updated_at', [l('a', 'closed', 10, 9), l('b', 'merged', 1, 1)], 'b'],
    ['else highest number', [l('a', 'closed', 1, 3), l('b', 'closed', 1, 8)], 'b'],
  ])('%s', (_w, links, expected) => expect(chooseLink(links)?.id).toBe(expected));
  it('none without links', () => expect(chooseLink([])).toBeNull());
});

describe('delivery context: workflow conclusions (rule 5)', () => {
  it.each([
    ['completed', 'success', 'passed'],
    ['completed', 'neutral', 'passed'],
    ['completed', 'cancelled', 'cancelled'],
    ['completed', 'stale', 'cancelled'],
    ['completed', 'skipped', 'cancelled'],
    ['completed', 'failure', 'failed'],
    ['completed', 'timed_out', 'failed'],
    ['completed', 'action_required', 'failed'],
    ['completed', 'startup_failure', 'failed'],
    ['in_progress', null, 'pending'],
    ['queued', null, 'pending'],
    ['completed', 'something_new', 'unknown'],
  ])('%s/%s → %s', (st, c, expected) => expect(conclusionOutcome(st, c)).toBe(expected));

  it('workflow runs are never required (rule 4) and only the exact head counts (rule 3)', () => {
    const wf = (id: string, head: string, conclusion: string) => ({
      id,
      name: 'CI',
      path: '.github/workflows/ci.yml',
      status: 'completed',
      conclusion,
      run_attempt: 1,
      html_url: null,
      head_sha: head,
      ...obs,
    });
    const c = buildDeliveryContext(input({ workflows: { complete: true, items: [wf('1', H, 'success'), wf('2', OLD, 'failure')] } }));
    expect(c.workflows).toEqual([expect.objectContaining({ id: '1', result: 'passed', required: false })]);
    expect(c.history).toMatchObject({ head_shas: [OLD], workflow_runs: 1 });
    expect(c.blocker).toBeNull();
  });
});

describe('delivery context: reviews (rule 10)', () => {
  it.each([
    ['no reviews', [], 'none', 0],
    ['one approval', [review(1, 1, 'APPROVED')], 'approved', 1],
    ['comment-only ignored', [review(1, 1, 'COMMENTED')], 'none', 0],
    ['change request wins', [review(1, 1, 'APPROVED'), review(2, 2, 'CHANGES_REQUESTED')], 'changes_requested', 1],
    ['latest opinion per reviewer', [review(1, 1, 'CHANGES_REQUESTED', H, 20), review(2, 1, 'APPROVED', H, 10)], 'approved', 1],
    ['a later comment keeps the opinion', [review(1, 1, 'APPROVED', H, 20), review(2, 1, 'COMMENTED', H, 10)], 'approved', 1],
    ['dismissed removed', [review(1, 1, 'APPROVED', H, 20), review(2, 1, 'DISMISSED', H, 10)], 'none', 0],
    ['earlier head is historical', [review(1, 1, 'APPROVED', OLD)], 'none', 0],
  ])('%s', (_w, items, state, approvals) => {
    const c = buildDeliveryContext(input({ reviews: { complete: true, items } }));
    expect(c.review.state).toBe(state);
    expect(c.review.approvals).toBe(approvals);
  });
});

describe('delivery context: required checks (rules 6-8)', () => {
  it('read flag off: disabled, none, partial not set', () => {
    const c = buildDeliveryContext(input({ checkRuns: { complete: false, items: [] } }));
    expect(c.required_checks).toEqual({ state: 'disabled', aggregate: 'none', checks: [], truncated: false });
  });

  it.each([
    ['no requirements', [], [], [], 'complete', 'none'],
    ['app-bound passes on the app', [req('test', 15, 'ruleset')], [run('test', 'success', 15)], [], 'complete', 'passed'],
    ['app-bound ignores another app', [req('test', 15, 'ruleset')], [run('test', 'success', 99)], [], 'complete', 'pending'],
    ['unbound: run and status both pass', [req('lint', null, 'classic')], [run('lint', 'success')], [status('lint', 'success')], 'complete', 'passed'],
    ['unbound: a failing status fails it', [req('lint', null, 'classic')], [run('lint', 'success')], [status('lint', 'failure')], 'complete', 'failed'],
    [
      'unbound: latest status wins',
      [req('lint', null, 'classic')],
      [],
      [status('lint', 'failure', 10, 1), status('lint', 'success', 2, 2)],
      'complete',
      'passed',
    ],
    ['pending run', [req('test', null, 'ruleset')], [run('test', null, 1, 'in_progress')], [], 'complete', 'pending'],
    ['cancelled run', [req('test', null, 'ruleset')], [run('test', 'skipped')], [], 'complete', 'cancelled'],
    ['results of another head do not count', [req('test', null, 'ruleset')], [run('test', 'success', 1, 'completed', OLD)], [], 'complete', 'pending'],
  ])('%s', (_w, reqs, runs, statuses, state, aggregate) => {
    const c = buildDeliveryContext(
      input({
        requirements: { classic: true, ruleset: true, items: reqs },
        checkRuns: { complete: true, items: runs },
        statuses: { complete: true, items: statuses },
      }),
    );
    expect(c.required_checks.state).toBe(state);
    expect(c.required_checks.aggregate).toBe(aggregate);
    expect(c.partial).toBe(false);
  });

  it('union by (context, integration_id) with policy_sources', () => {
    const c = buildDeliveryContext(
      input({
        requirements: { classic: true, ruleset: true, items: [req('ci', null, 'classic'), req('ci', null, 'ruleset'), req('ci', 15, 'ruleset')] },
        checkRuns: { complete: true, items: [run('ci', 'success', 15)] },
      }),
    );
    expect(c.required_checks.checks.map((x) => [x.context, x.integration_id, x.policy_sources, x.result])).toEqual([
      ['ci', null, ['classic', 'ruleset'], 'passed'],
      ['ci', 15, ['ruleset'], 'passed'],
    ]);
    expect(c.required_checks.aggregate).toBe('passed');
  });

  it.each([
    ['ruleset read failed', { classic: true, ruleset: false }, true, 'partial', 'unknown'],
    ['both policy reads failed', { classic: false, ruleset: false }, true, 'unavailable', 'unknown'],
    ['check-run read failed', { classic: true, ruleset: true }, false, 'partial', 'unknown'],
  ])('partial evidence that could change the result stays unknown: %s', (_w, flags, runsComplete, state, aggregate) => {
    const c = buildDeliveryContext(
      input({
        requirements: { ...flags, items: [req('ci', null, 'classic')] },
        checkRuns: { complete: runsComplete, items: [run('ci', 'success')] },
        statuses: { complete: true, items: [] },
      }),
    );
    expect(c.required_checks.state).toBe(state);
    expect(c.required_checks.aggregate).toBe(aggregate);
    expect(c.partial).toBe(true);
  });

  it('a proven failure stands despite partial evidence', () => {
    const c = buildDeliveryContext(
      input({
        requirements: { classic: true, ruleset: false, items: [req('ci', null, 'classic')] },
        checkRuns: { complete: true, items: [run('ci', 'failure')] },
      }),
    );
    expect(c.required_checks.aggregate).toBe('failed');
    expect(c.blocker?.code).toBe('required_checks_failed');
  });

  it(`caps the collection at ${REQUIRED_CHECKS_CAP} identities`, () => {
    const items = Array.from({ length: REQUIRED_CHECKS_CAP + 5 }, (_, i) => req(`c${String(i).padStart(3, '0')}`, null, 'ruleset'));
    const c = buildDeliveryContext(input({ requirements: { classic: true, ruleset: true, items } }));
    expect(c.required_checks.checks).toHaveLength(REQUIRED_CHECKS_CAP);
    expect(c.required_checks).toMatchObject({ truncated: true, state: 'partial', aggregate: 'unknown' });
    expect(c.partial).toBe(true);
  });

  it('no exact head: unavailable', () => {
    const base = input();
    const c = buildDeliveryContext({
      ...base,
      link: { ...base.link, head_sha: null },
      requirements: { classic: true, ruleset: true, items: [req('ci', null, 'classic')] },
    });
    expect(c.required_checks.state).toBe('unavailable');
    expect(c.blocker?.code).toBe('head_unknown');
  });
});

describe('delivery context: authoritative pr_status (rule 9)', () => {
  it('a disagreeing same-head observation is neutralised', () => {
    const c = buildDeliveryContext(input({ pr: { state: 'closed', head_sha: H, url: 'https://x/y', observed_at: at(0), provider_event_id: 'evt-1' } }));
    expect(c.pr_status).toBe('open');
    expect(c.pr_observation).toEqual({ state: 'open', observed_at: null, provider_event_id: null, source_url: 'https://github.com/octo/widgets/pull/7' });
    expect(c.partial).toBe(true);
    expect(c.provenance.provider_event_ids).not.toContain('evt-1');
    expect(c.freshness.observed_at).toBeNull();
  });

  it('an agreeing observation counts for freshness', () => {
    const c = buildDeliveryContext(input({ pr: { state: 'open', head_sha: H, url: 'https://x/y', observed_at: at(2), provider_event_id: 'evt-2' } }));
    expect(c.partial).toBe(false);
    expect(c.freshness.observed_at).toBe(at(2).toISOString());
    expect(c.provenance.provider_event_ids).toEqual(['evt-2']);
  });
});

describe('delivery context: strongest safe blocker', () => {
  it.each([
    ['closed PR', { pr_status: 'closed' }, {}, 'pr_closed'],
    ['change request', {}, { reviews: { complete: true, items: [review(1, 1, 'CHANGES_REQUESTED')] } }, 'changes_requested'],
    ['draft', { pr_status: 'draft' }, {}, 'pr_draft'],
    ['merged is not a blocker and nothing is inferred', { pr_status: 'merged' }, {}, null],
  ])('%s', (_w, linkOver, over, code) => {
    const base = input(over as Partial<ContextInput>);
    const c = buildDeliveryContext({ ...base, link: { ...base.link, ...linkOver } });
    expect(c.blocker?.code ?? null).toBe(code);
  });
});
