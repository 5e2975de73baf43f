/**
 * Issue delivery context (interface.md "Issue delivery context"), computed from what is known:
 * the selected PR link (authoritative for `pr_status`), observations of the PR, its reviews,
 * check runs, legacy commit statuses and workflow runs (live provider reads or webhook
 * observations), and the required-check policy of the base branch. Pure: no I/O, table-tested
 * (delivery-context.spec.ts). Nothing is inferred: no merge, deployment, production testing or
 * human acceptance.
 */

export const REQUIRED_CHECKS_CAP = 200;
export const HISTORY_CAP = 20;

export interface LinkForContext {
  id: string;
  owner: string;
  repo: string;
  pr_number: number;
  pr_id: number | null;
  github_repository_id: number | null;
  pr_url: string;
  pr_title: string;
  pr_status: string;
  head_sha: string | null;
  base_ref: string | null;
  base_sha: string | null;
  head_history: string[];
  updated_at: Date;
}

/** One observation as the context reads it (provider read or webhook). */
export interface Obs {
  head_sha: string | null;
  observed_at: Date | null;
  provider_event_id: string | null;
}
export interface PrObs extends Obs {
  state: string;
  url: string;
}
export interface ReviewObs extends Obs {
  id: string;
  reviewer_id: number | null;
  reviewer: string | null;
  state: string;
  submitted_at: Date | null;
}
export interface CheckRunObs extends Obs {
  id: string;
  name: string;
  status: string;
  conclusion: string | null;
  app_id: number | null;
  updated_at: Date | null;
}
export interface StatusObs extends Obs {
  id: string;
  context: string;
  state: string;
  updated_at: Date | null;
}
export interface WorkflowObs extends Obs {
  id: string;
  name: string | null;
  path: string | null;
  status: string | null;
  conclusion: string | null;
  run_attempt: number | null;
  html_url: string | null;
}
export interface Requirement {
  context: string;
  integration_id: number | null;
  source: 'classic' | 'ruleset';
}

/** Evidence the service could or could not get; `false` means the read failed (partial evidence). */
export interface ContextInput {
  link: LinkForContext;
  pr: PrObs | null;
  reviews: { complete: boolean; items: ReviewObs[] };
  checkRuns: { complete: boolean; items: CheckRunObs[] };
  statuses: { complete: boolean; items: StatusObs[] };
  workflows: { complete: boolean; items: WorkflowObs[] };
  /** null: the read flag is off. */
  requirements: null | { classic: boolean; ruleset: boolean; items: Requirement[] };
  /** Provider verification is on for the connection (false: no new projections). */
  verificationEnabled: boolean;
  now: Date;
  source: 'provider' | 'webhook' | 'none';
}

export type Outcome = 'pending' | 'passed' | 'failed' | 'cancelled' | 'unknown';

/** Workflow (and check-run) conclusions: success/neutral pass; cancelled/stale/skipped cancel; other terminal ones fail. */
export function conclusionOutcome(status: string | null, conclusion: string | null): Outcome {
  if (status && status !== 'completed') return 'pending';
  switch (conclusion) {
    case 'success':
    case 'neutral':
      return 'passed';
    case 'cancelled':
    case 'stale':
    case 'skipped':
      return 'cancelled';
    case 'failure':
    case 'timed_out':
    case 'action_required':
    case 'startup_failure':
      return 'failed';
    case null:
    case undefined:
      return status === 'completed' ? 'unknown' : 'pending';
    default:
      return 'unknown';
  }
}

/** Legacy commit status states. */
export function statusOutcome(state: string): Outcome {
  if (state === 'success') return 'passed';
  if (state === 'pending') return 'pending';
  if (state === 'failure' || state === 'error') return 'failed';
  return 'unknown';
}

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
const newer = <T extends { updated_at: Date | null; id: string }>(a: T, b: T) =>
  (a.updated_at?.getTime() ?? 0) - (b.updated_at?.getTime() ?? 0) || (Number(a.id) || 0) - (Number(b.id) || 0);

/** Review aggregation: latest exact-head opinion per reviewer; comment-only ignored; dismissed removed; a change request wins. */
export function aggregateReviews(items: ReviewObs[], head: string | null) {
  const latest = new Map<string, ReviewObs>();
  const sorted = [...items].sort((a, b) => (a.submitted_at?.getTime() ?? 0) - (b.submitted_at?.getTime() ?? 0) || (Number(a.id) || 0) - (Number(b.id) || 0));
  for (const r of sorted) {
    if (!head || r.head_sha !== head) continue;
    const st = r.state.toUpperCase();
    if (st === 'COMMENTED' || st === 'PENDING') continue;
    const who = r.reviewer_id != null ? `id:${r.reviewer_id}` : `login:${r.reviewer ?? ''}`;
    if (st === 'DISMISSED') latest.delete(who);
    else if (st === 'APPROVED' || st === 'CHANGES_REQUESTED') latest.set(who, r);
  }
  const effective = [...latest.values()];
  const approvals = effective.filter((r) => r.state.toUpperCase() === 'APPROVED').length;
  const changes = effective.filter((r) => r.state.toUpperCase() === 'CHANGES_REQUESTED').length;
  const state = changes ? 'changes_requested' : approvals ? 'approved' : 'none';
  return {
    state,
    approvals,
    changes_requested: changes,
    reviewers: effective
      .map((r) => ({ reviewer: r.reviewer, reviewer_id: r.reviewer_id, state: r.state.toLowerCase(), submitted_at: iso(r.submitted_at) }))
      .sort((a, b) => String(a.reviewer).localeCompare(String(b.reviewer))),
  };
}

type CheckState = 'disabled' | 'complete' | 'partial' | 'unavailable';
type Aggregate = 'none' | 'pending' | 'passed' | 'failed' | 'cancelled' | 'unknown';

/** Required checks (rules 6-8). */
export function requiredChecks(input: ContextInput, head: string | null) {
  const reqs = input.requirements;
  if (!reqs) return { out: { state: 'disabled' as CheckState, aggregate: 'none' as Aggregate, checks: [], truncated: false }, partial: false };
  if (!reqs.classic && !reqs.ruleset)
    return { out: { state: 'unavailable' as CheckState, aggregate: 'unknown' as Aggregate, checks: [], truncated: false }, partial: true };
  // union by (context, integration_id)
  const byId = new Map<string, { context: string; integration_id: number | null; policy_sources: Set<string> }>();
  for (const r of reqs.items) {
    const key = `${r.context}\u0000${r.integration_id ?? ''}`;
    let e = byId.get(key);
    if (!e) byId.set(key, (e = { context: r.context, integration_id: r.integration_id, policy_sources: new Set() }));
    e.policy_sources.add(r.source);
  }
  const all = [...byId.values()].sort((a, b) => a.context.localeCompare(b.context) || (a.integration_id ?? -1) - (b.integration_id ?? -1));
  const truncated = all.length > REQUIRED_CHECKS_CAP;
  const ids = all.slice(0, REQUIRED_CHECKS_CAP);
  const exact = head && /^[0-9a-f]{40}$/.test(head) ? head : null;
  const runs = exact ? input.checkRuns.items.filter((c) => c.head_sha === exact) : [];
  const statuses = exact ? input.statuses.items.filter((s) => s.head_sha === exact) : [];
  // partial evidence: a failed read of either policy or of the results, a capped collection, no exact head
  const gap = !exact || !input.checkRuns.complete || !input.statuses.complete || truncated || !reqs.classic || !reqs.ruleset;
  const checks = ids.map((req) => {
    const run =
      runs
        .filter((c) => c.name === req.context && (req.integration_id == null || c.app_id === req.integration_id))
        .sort(newer)
        .at(-1) ?? null;
    // an unbound requirement uses the latest check run AND the latest legacy status; both must pass when both exist
    const status =
      req.integration_id == null
        ? (statuses
            .filter((s) => s.context === req.context)
            .sort(newer)
            .at(-1) ?? null)
        : null;
    const parts: Outcome[] = [];
    if (run) parts.push(conclusionOutcome(run.status, run.conclusion));
    if (status) parts.push(statusOutcome(status.state));
    const result: Outcome = parts.length ? combine(parts) : gap ? 'unknown' : 'pending';
    return {
      context: req.context,
      integration_id: req.integration_id,
      policy_sources: [...req.policy_sources].sort(),
      result,
      check_run: run ? { id: run.id, status: run.status, conclusion: run.conclusion, app_id: run.app_id } : null,
      commit_status: status ? { id: status.id, state: status.state } : null,
    };
  });
  let aggregate: Aggregate = checks.length ? combine(checks.map((c) => c.result)) : gap ? 'unknown' : 'none';
  // evidence that could change the result keeps it unknown; a proven failure stands
  if (gap && aggregate !== 'failed') aggregate = 'unknown';
  const state: CheckState = !exact ? 'unavailable' : gap ? 'partial' : 'complete';
  return { out: { state, aggregate, checks, truncated }, partial: state !== 'complete' };
}

/** Several results of one requirement or of all requirements: failed > cancelled > unknown > pending > passed. */
function combine(parts: Outcome[]): Outcome {
  for (const o of ['failed', 'cancelled', 'unknown', 'pending'] as const) if (parts.includes(o)) return o;
  return 'passed';
}

export function buildDeliveryContext(input: ContextInput) {
  const { link } = input;
  const head = link.head_sha;
  let partial = false;
  // rule 9: the link's pr_status is authoritative; a disagreeing same-head observation is neutralised
  let prObs: { state: string; observed_at: string | null; provider_event_id: string | null; source_url: string | null } | null = null;
  let prObsCounts = false;
  if (input.pr) {
    if (input.pr.head_sha === head && input.pr.state !== link.pr_status) {
      prObs = { state: link.pr_status, observed_at: null, provider_event_id: null, source_url: link.pr_url };
      partial = true;
    } else {
      prObs = { state: input.pr.state, observed_at: iso(input.pr.observed_at), provider_event_id: input.pr.provider_event_id, source_url: input.pr.url };
      prObsCounts = input.pr.head_sha === head;
    }
  }
  const current = <T extends Obs>(xs: T[]) => xs.filter((x) => head && x.head_sha === head);
  const historical = <T extends Obs>(xs: T[]) => xs.filter((x) => !head || x.head_sha !== head);

  const review = aggregateReviews(input.reviews.items, head);
  if (!input.reviews.complete) partial = true;
  const checks = requiredChecks(input, head);
  if (input.requirements && checks.partial) partial = true;

  const workflows = current(input.workflows.items)
    .map((w) => ({
      id: w.id,
      name: w.name,
      path: w.path,
      run_attempt: w.run_attempt,
      status: w.status,
      conclusion: w.conclusion,
      result: conclusionOutcome(w.status, w.conclusion),
      required: false,
      html_url: w.html_url,
      observed_at: iso(w.observed_at),
    }))
    .sort((a, b) => String(a.path).localeCompare(String(b.path)) || String(a.id).localeCompare(String(b.id)));
  if (!input.workflows.complete) partial = true;

  // freshness: the newest exact-head observation that counts
  const stamps: Date[] = [];
  if (prObsCounts && input.pr?.observed_at) stamps.push(input.pr.observed_at);
  for (const xs of [input.reviews.items, input.checkRuns.items, input.statuses.items, input.workflows.items])
    for (const x of current(xs as Obs[])) if (x.observed_at) stamps.push(x.observed_at);
  const newest = stamps.length ? new Date(Math.max(...stamps.map((d) => d.getTime()))) : null;

  const hist = {
    head_shas: link.head_history.slice(0, HISTORY_CAP),
    reviews: historical(input.reviews.items).length,
    check_runs: historical(input.checkRuns.items).length,
    statuses: historical(input.statuses.items).length,
    workflow_runs: historical(input.workflows.items).length,
  };
  const eventIds = [
    ...new Set(
      [
        prObsCounts ? input.pr?.provider_event_id : null,
        ...[input.reviews.items, input.checkRuns.items, input.statuses.items, input.workflows.items].flatMap((xs) =>
          current(xs as Obs[]).map((x) => x.provider_event_id),
        ),
      ].filter((x): x is string => !!x),
    ),
  ].slice(0, 10);

  const blocker = strongestBlocker(
    link.pr_status,
    head,
    review.state,
    checks.out.aggregate,
    workflows.map((w) => w.result),
  );
  return {
    link_id: link.id,
    repository: { github_repo: `${link.owner}/${link.repo}`, github_repository_id: link.github_repository_id, owner: link.owner, repo: link.repo },
    pull_request: { number: link.pr_number, pr_id: link.pr_id, url: link.pr_url, title: link.pr_title, base_ref: link.base_ref, base_sha: link.base_sha },
    head_sha: head,
    pr_status: link.pr_status,
    pr_observation: prObs,
    review,
    required_checks: checks.out,
    workflows,
    history: hist,
    provenance: { source: input.source, provider_event_ids: eventIds, source_url: link.pr_url },
    freshness: { observed_at: iso(newest), read_at: input.now.toISOString(), link_updated_at: link.updated_at.toISOString() },
    verification: { enabled: input.verificationEnabled },
    blocker,
    partial,
  };
}

/** The strongest blocker the evidence proves (never inferred): closed/merged state, change requests, failed or pending checks and workflows, missing head. */
export function strongestBlocker(prStatus: string, head: string | null, review: string, checks: string, workflows: Outcome[]) {
  if (prStatus === 'closed') return { code: 'pr_closed', message: 'The pull request is closed without merge' };
  if (!head) return { code: 'head_unknown', message: 'The head commit of the pull request is not known yet' };
  if (review === 'changes_requested') return { code: 'changes_requested', message: 'A reviewer requested changes on the current head' };
  if (checks === 'failed') return { code: 'required_checks_failed', message: 'A required check failed on the current head' };
  if (workflows.includes('failed')) return { code: 'workflow_failed', message: 'A workflow run failed on the current head' };
  if (checks === 'cancelled') return { code: 'required_checks_cancelled', message: 'A required check was cancelled on the current head' };
  if (checks === 'pending') return { code: 'required_checks_pending', message: 'Required checks are still running on the current head' };
  if (workflows.includes('pending')) return { code: 'workflow_pending', message: 'A workflow run is still running on the current head' };
  if (prStatus === 'draft') return { code: 'pr_draft', message: 'The pull request is a draft' };
  return null;
}

export type DeliveryContext = ReturnType<typeof buildDeliveryContext>;
