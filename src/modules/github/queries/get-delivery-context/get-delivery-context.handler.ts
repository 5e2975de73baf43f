import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Clock } from '../../../../common/clock/clock';
import { APP_CONFIG, type AppConfig } from '../../../../config/config';
import {
  buildDeliveryContext,
  type CheckRunObs,
  type LinkForContext,
  type PrObs,
  type Requirement,
  type ReviewObs,
  type StatusObs,
  type WorkflowObs,
} from '../../delivery-context';
import type { GhCheckRun, GhReview, GhStatus, GhWorkflowRun, ProviderResult, ReadOpts } from '../../github-api';
import { GithubProvider, isPull, pullMetadata } from '../../github-provider.service';
import type { DeliveryContextEnvelope, DeliveryContextResponse } from '../../github.response';
import { type ObservationRow, ObservationsRepository } from '../../observations.repository';
import { type PrLinkRow, PrLinksRepository } from '../../pr-links.repository';
import { repoKey, SHA40 } from '../../pr-url';
import { GetDeliveryContextQuery } from './get-delivery-context.query';

/** Reads in the request path: two attempts, 5 s each. */
const READ: ReadOpts = { attempts: 2, timeoutMs: 5000 };
const OPEN = new Set(['open', 'draft']);

/** Rule 1: an open PR link first, else the latest `updated_at`, else the highest PR number. */
export function chooseLink<T extends Pick<PrLinkRow, 'pr_status' | 'updated_at' | 'pr_number' | 'id'>>(links: T[]): T | null {
  return (
    [...links].sort(
      (a, b) =>
        Number(OPEN.has(b.pr_status)) - Number(OPEN.has(a.pr_status)) ||
        b.updated_at.getTime() - a.updated_at.getTime() ||
        b.pr_number - a.pr_number ||
        (a.id < b.id ? -1 : 1),
    )[0] ?? null
  );
}

const d = (v: unknown): Date | null => {
  const x = typeof v === 'string' ? new Date(v) : null;
  return x && !Number.isNaN(x.getTime()) ? x : null;
};
const n = (v: unknown): number | null =>
  typeof v === 'number' && Number.isSafeInteger(v) ? v : typeof v === 'string' && /^\d{1,15}$/.test(v) ? Number(v) : null;
const lsha = (v: unknown): string | null => (typeof v === 'string' && SHA40.test(v.toLowerCase()) ? v.toLowerCase() : null);

/**
 * `GET …/issues/{issueId}/delivery-context` (interface.md "Issue delivery context"): readable
 * issues only; `{ deliveryContext: null }` without a PR link. Evidence comes from live provider
 * reads of the selected link's exact head (the org's connection token, anonymous without one) and,
 * where a read fails, from webhook observations (then `partial`). Required checks are read only
 * with SERVICE_GITHUB_REQUIRED_CHECKS_READ_ENABLED. Reading changes nothing: no link, task,
 * heartbeat or dispatch state.
 */
@QueryHandler(GetDeliveryContextQuery)
export class GetDeliveryContextHandler implements IQueryHandler<GetDeliveryContextQuery, DeliveryContextEnvelope> {
  constructor(
    private readonly access: AccessPolicyService,
    private readonly links: PrLinksRepository,
    private readonly provider: GithubProvider,
    private readonly observations: ObservationsRepository,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ actor, issueId }: GetDeliveryContextQuery): Promise<DeliveryContextEnvelope> {
    const issue = await this.access.assertIssueRead(actor, issueId);
    const link = chooseLink(await this.links.listForIssue(actor.orgId, issue.id));
    if (!link) return { deliveryContext: null };
    const now = this.clock.now();
    const conn = await this.provider.access(actor.orgId);
    const token = conn?.token ?? null;
    const head = link.head_sha;
    const { owner, repo, pr_number } = link;
    const api = this.provider.api;
    const skip = <T>(): Promise<ProviderResult<T>> => Promise.resolve({ ok: false, reason: 'not_found', status: null });
    const readChecks = this.config.githubRequiredChecksReadEnabled && !!link.base_ref;
    const [pull, reviews, runs, statuses, workflows, classic, ruleset, stored] = await Promise.all([
      api.pull(owner, repo, pr_number, token, READ),
      api.reviews(owner, repo, pr_number, token, READ),
      head ? api.checkRuns(owner, repo, head, token, READ) : skip<{ check_runs: GhCheckRun[] }>(),
      head ? api.statuses(owner, repo, head, token, READ) : skip<GhStatus[]>(),
      head ? api.workflowRuns(owner, repo, head, token, READ) : skip<{ workflow_runs: GhWorkflowRun[] }>(),
      readChecks ? api.classicRequired(owner, repo, link.base_ref!, token, READ) : skip<Requirement[]>(),
      readChecks ? api.rulesetRequired(owner, repo, link.base_ref!, token, READ) : skip<Requirement[]>(),
      this.observations.forPr(actor.orgId, repoKey(owner, repo), pr_number, [head, ...link.head_history].filter((x): x is string => !!x).slice(0, 21)),
    ]);
    const of = (k: ObservationRow['kind']) => stored.filter((o) => o.kind === k);
    const live = { observed_at: now, provider_event_id: null };

    // the PR: live read, else the latest stored pull_request observation
    let pr: PrObs | null = null;
    if (pull.ok && isPull(pull.data)) {
      const md = pullMetadata(pull.data, { owner, repo, number: pr_number, url: link.pr_url });
      pr = { ...live, state: md.pr_status, head_sha: md.head_sha, url: link.pr_url };
    } else {
      const o = of('pull_request')[0];
      if (o?.state)
        pr = { state: o.state, head_sha: o.head_sha, observed_at: o.observed_at, provider_event_id: o.provider_event_id, url: o.html_url ?? link.pr_url };
    }

    const storedReviews: ReviewObs[] = of('review').map((o) => ({
      id: o.external_id,
      reviewer: o.name,
      reviewer_id: n(o.actor_id),
      state: o.state ?? '',
      submitted_at: o.provider_updated_at,
      head_sha: o.head_sha,
      observed_at: o.observed_at,
      provider_event_id: o.provider_event_id,
    }));
    const reviewSet =
      reviews.ok && Array.isArray(reviews.data)
        ? {
            complete: true,
            items: (reviews.data as GhReview[]).map((r) => ({
              id: String(r.id),
              reviewer: typeof r.user?.login === 'string' ? r.user.login : null,
              reviewer_id: n(r.user?.id),
              state: String(r.state ?? ''),
              submitted_at: d(r.submitted_at),
              head_sha: lsha(r.commit_id),
              ...live,
            })),
          }
        : { complete: false, items: storedReviews };

    const hist = <T extends { head_sha: string | null }>(xs: T[]) => xs.filter((x) => x.head_sha !== head);
    const storedRuns: CheckRunObs[] = of('check_run').map((o) => ({
      id: o.external_id,
      name: o.name ?? '',
      status: o.state ?? '',
      conclusion: o.conclusion,
      app_id: n(o.app_id),
      updated_at: o.provider_updated_at,
      head_sha: o.head_sha,
      observed_at: o.observed_at,
      provider_event_id: o.provider_event_id,
    }));
    const runSet =
      runs.ok && Array.isArray(runs.data?.check_runs)
        ? {
            complete: true,
            items: [
              ...runs.data.check_runs.map((c) => ({
                id: String(c.id),
                name: String(c.name ?? ''),
                status: String(c.status ?? ''),
                conclusion: typeof c.conclusion === 'string' ? c.conclusion : null,
                app_id: n(c.app?.id),
                updated_at: d(c.completed_at) ?? d(c.started_at),
                head_sha: head,
                ...live,
              })),
              ...hist(storedRuns),
            ],
          }
        : { complete: false, items: storedRuns };
    const storedStatuses: StatusObs[] = of('status').map((o) => ({
      id: o.external_id,
      context: o.name ?? '',
      state: o.state ?? '',
      updated_at: o.provider_updated_at,
      head_sha: o.head_sha,
      observed_at: o.observed_at,
      provider_event_id: o.provider_event_id,
    }));
    const statusSet =
      statuses.ok && Array.isArray(statuses.data)
        ? {
            complete: true,
            items: [
              ...statuses.data.map((s) => ({
                id: String(s.id),
                context: String(s.context ?? ''),
                state: String(s.state ?? ''),
                updated_at: d(s.updated_at),
                head_sha: head,
                ...live,
              })),
              ...hist(storedStatuses),
            ],
          }
        : { complete: false, items: storedStatuses };
    const storedWorkflows: WorkflowObs[] = of('workflow_run').map((o) => ({
      id: o.external_id.split(':')[0],
      name: o.name,
      path: o.path,
      status: o.state,
      conclusion: o.conclusion,
      run_attempt: o.run_attempt,
      html_url: o.html_url,
      head_sha: o.head_sha,
      observed_at: o.observed_at,
      provider_event_id: o.provider_event_id,
    }));
    const workflowSet =
      workflows.ok && Array.isArray(workflows.data?.workflow_runs)
        ? {
            complete: true,
            items: [
              ...workflows.data.workflow_runs
                .filter((w) => lsha(w.head_sha) === head)
                .map((w) => ({
                  id: String(w.id),
                  name: typeof w.name === 'string' ? w.name : null,
                  path: typeof w.path === 'string' ? w.path : null,
                  status: typeof w.status === 'string' ? w.status : null,
                  conclusion: typeof w.conclusion === 'string' ? w.conclusion : null,
                  run_attempt: n(w.run_attempt),
                  html_url: typeof w.html_url === 'string' ? w.html_url : null,
                  head_sha: head,
                  ...live,
                })),
              ...hist(storedWorkflows),
            ],
          }
        : { complete: false, items: storedWorkflows };

    const requirements = readChecks
      ? {
          classic: classic.ok,
          ruleset: ruleset.ok,
          items: [
            ...(classic.ok ? classic.data.map((r) => ({ ...r, source: 'classic' as const })) : []),
            ...(ruleset.ok ? ruleset.data.map((r) => ({ ...r, source: 'ruleset' as const })) : []),
          ],
        }
      : this.config.githubRequiredChecksReadEnabled
        ? { classic: false, ruleset: false, items: [] }
        : null;
    const anyLive = [pull, reviews, runs, statuses, workflows].some((r) => r.ok);
    const ctxLink: LinkForContext = {
      id: link.id,
      owner,
      repo,
      pr_number,
      pr_id: n(link.pr_id),
      github_repository_id: n(link.github_repository_id),
      pr_url: link.pr_url,
      pr_title: link.pr_title,
      pr_status: link.pr_status,
      head_sha: head,
      base_ref: link.base_ref,
      base_sha: link.base_sha,
      head_history: Array.isArray(link.head_history) ? link.head_history : [],
      updated_at: link.updated_at,
    };
    const context = buildDeliveryContext({
      link: ctxLink,
      pr,
      reviews: reviewSet,
      checkRuns: runSet,
      statuses: statusSet,
      workflows: workflowSet,
      requirements,
      verificationEnabled: conn?.connection.verification_mode === 'attention',
      now,
      source: anyLive ? 'provider' : stored.length ? 'webhook' : 'none',
    });
    return { deliveryContext: context as unknown as DeliveryContextResponse };
  }
}
