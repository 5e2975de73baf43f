import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { EgressClient } from '../../common/egress/egress-client';
import { isLoopbackUrl } from '../../common/egress/destination';
import { EgressError } from '../../common/egress/egress-error';

/**
 * The GitHub REST API, reached at SERVICE_GITHUB_API_URL (operator configuration, default
 * https://api.github.com) through the SSRF-safe egress client. The base URL is trusted: when it
 * is a loopback URL (tests, a local proxy) loopback is allowed for it, and only for it; paths are
 * built from validated owner/repo names and numbers only.
 *
 * Every call is a GET with a time limit (SERVICE_GITHUB_TIMEOUT_MS, default 10 s), at most 3 attempts with exponential backoff (250 ms,
 * 500 ms) on 5xx, 429 and network failures (a `Retry-After` up to 2 s is honoured). The outcome is
 * never an exception: `{ ok: true, data }` for a 2xx JSON body, otherwise `{ ok: false, reason }`
 * with a stable reason (`not_found`, `unauthorized`, `forbidden`, `rate_limited`, `provider_error`,
 * `unreachable`, `invalid_response`). Bodies of failed responses and tokens are never logged.
 */
export type ProviderFailure = 'not_found' | 'unauthorized' | 'forbidden' | 'rate_limited' | 'provider_error' | 'unreachable' | 'invalid_response';
export type ProviderResult<T> = { ok: true; data: T } | { ok: false; reason: ProviderFailure; status: number | null };

/** Per-call limits (reads in a request path use fewer attempts and a shorter time limit). */
export interface ReadOpts {
  attempts?: number;
  timeoutMs?: number;
}

export const GITHUB_TIMEOUT_MS = 10_000;
const ATTEMPTS = 3;
const BACKOFF_MS = 250;
const MAX_BYTES = 4 * 1024 * 1024;

/** What the client needs from a pull request (fields of GET /repos/{owner}/{repo}/pulls/{number}). */
export interface GhPull {
  id: number;
  number: number;
  state: string;
  title: string;
  html_url: string;
  draft?: boolean;
  merged?: boolean;
  merged_at?: string | null;
  head: { sha: string; ref: string };
  base: { sha: string; ref: string; repo: { id: number; full_name?: string } | null };
}
export interface GhReview {
  id: number;
  state: string;
  commit_id: string | null;
  user: { login: string; id: number } | null;
  submitted_at?: string | null;
}
export interface GhCheckRun {
  id: number;
  name: string;
  status: string;
  conclusion: string | null;
  app: { id: number } | null;
  completed_at?: string | null;
  started_at?: string | null;
  html_url?: string | null;
}
export interface GhStatus {
  id: number;
  context: string;
  state: string;
  updated_at?: string | null;
  target_url?: string | null;
}
export interface GhWorkflowRun {
  id: number;
  name: string | null;
  path: string | null;
  head_sha: string;
  status: string | null;
  conclusion: string | null;
  run_attempt?: number;
  html_url: string;
  updated_at?: string | null;
}
export interface GhRequiredCheck {
  context: string;
  integration_id: number | null;
}

@Injectable()
export class GithubApi {
  private readonly logger = new Logger(GithubApi.name);
  private readonly base: string;
  private readonly loopback: boolean;
  private readonly timeoutMs: number;

  constructor(
    private readonly egress: EgressClient,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.base = config.githubApiUrl;
    this.timeoutMs = config.githubTimeoutMs ?? GITHUB_TIMEOUT_MS;
    this.loopback = loopbackBase(this.base) || config.allowLoopbackWebhooks;
  }

  /** GET `path` (starting with `/`), JSON. `token` null: anonymous (public repositories). */
  async get<T>(path: string, token: string | null, opts: ReadOpts = {}): Promise<ProviderResult<T>> {
    const attempts = opts.attempts ?? ATTEMPTS;
    const headers: Record<string, string> = {
      accept: 'application/vnd.github+json',
      'x-github-api-version': '2022-11-28',
      'user-agent': 'service-github-integration',
    };
    if (token) headers.authorization = `Bearer ${token}`;
    let last: ProviderResult<T> = { ok: false, reason: 'unreachable', status: null };
    for (let attempt = 1; attempt <= attempts; attempt++) {
      let retryAfterMs = BACKOFF_MS * 2 ** (attempt - 1);
      try {
        const res = await this.egress.request({
          url: `${this.base}${path}`,
          method: 'GET',
          headers,
          timeoutMs: Math.min(opts.timeoutMs ?? this.timeoutMs, this.timeoutMs),
          maxResponseBytes: MAX_BYTES,
          allowLoopback: this.loopback,
        });
        if (res.status >= 200 && res.status < 300) {
          try {
            return { ok: true, data: JSON.parse(res.body.toString('utf8')) as T };
          } catch {
            return { ok: false, reason: 'invalid_response', status: res.status };
          }
        }
        const rateLimited = res.status === 429 || (res.status === 403 && res.headers['x-ratelimit-remaining'] === '0');
        if (res.status === 404) return { ok: false, reason: 'not_found', status: 404 };
        if (res.status === 401) return { ok: false, reason: 'unauthorized', status: 401 };
        if (res.status === 403 && !rateLimited) return { ok: false, reason: 'forbidden', status: 403 };
        if (!rateLimited && res.status < 500) return { ok: false, reason: 'provider_error', status: res.status };
        last = { ok: false, reason: rateLimited ? 'rate_limited' : 'provider_error', status: res.status };
        const ra = Number(res.headers['retry-after']);
        if (Number.isFinite(ra) && ra >= 0) retryAfterMs = Math.max(retryAfterMs, Math.min(ra * 1000, 2000));
      } catch (e) {
        const code = e instanceof EgressError ? e.code : 'network_error';
        last = { ok: false, reason: 'unreachable', status: null };
        if (code === 'invalid_url' || code === 'blocked_address' || code === 'redirect' || code === 'too_large') {
          return { ok: false, reason: code === 'too_large' ? 'invalid_response' : 'unreachable', status: null };
        }
      }
      if (attempt < attempts) await sleep(retryAfterMs);
    }
    this.logger.warn(`GitHub GET ${safePath(path)} failed: ${last.ok ? '' : last.reason} (${last.ok ? '' : (last.status ?? 'no response')})`);
    return last;
  }

  user(token: string): Promise<ProviderResult<{ login: string; id: number }>> {
    return this.get('/user', token);
  }

  pull(owner: string, repo: string, n: number, token: string | null, opts?: ReadOpts): Promise<ProviderResult<GhPull>> {
    return this.get(`${repoPath(owner, repo)}/pulls/${n}`, token, opts);
  }

  reviews(owner: string, repo: string, n: number, token: string | null, opts?: ReadOpts): Promise<ProviderResult<GhReview[]>> {
    return this.get(`${repoPath(owner, repo)}/pulls/${n}/reviews?per_page=100`, token, opts);
  }

  checkRuns(owner: string, repo: string, sha: string, token: string | null, opts?: ReadOpts): Promise<ProviderResult<{ check_runs: GhCheckRun[] }>> {
    return this.get(`${repoPath(owner, repo)}/commits/${sha}/check-runs?per_page=100`, token, opts);
  }

  statuses(owner: string, repo: string, sha: string, token: string | null, opts?: ReadOpts): Promise<ProviderResult<GhStatus[]>> {
    return this.get(`${repoPath(owner, repo)}/commits/${sha}/statuses?per_page=100`, token, opts);
  }

  workflowRuns(owner: string, repo: string, sha: string, token: string | null, opts?: ReadOpts): Promise<ProviderResult<{ workflow_runs: GhWorkflowRun[] }>> {
    return this.get(`${repoPath(owner, repo)}/actions/runs?head_sha=${sha}&per_page=100`, token, opts);
  }

  /** Classic branch protection's required status checks; a 404 (branch not protected) is an empty requirement. */
  async classicRequired(owner: string, repo: string, branch: string, token: string | null, opts?: ReadOpts): Promise<ProviderResult<GhRequiredCheck[]>> {
    const r = await this.get<{ contexts?: string[]; checks?: Array<{ context: string; app_id: number | null }> }>(
      `${repoPath(owner, repo)}/branches/${encodeURIComponent(branch)}/protection/required_status_checks`,
      token,
      opts,
    );
    if (!r.ok) return r.reason === 'not_found' ? { ok: true, data: [] } : r;
    if (!r.data || typeof r.data !== 'object') return { ok: false, reason: 'invalid_response', status: 200 };
    const checks = Array.isArray(r.data.checks)
      ? r.data.checks.map((c) => ({ context: String(c.context), integration_id: typeof c.app_id === 'number' ? c.app_id : null }))
      : (r.data.contexts ?? []).map((context) => ({ context: String(context), integration_id: null }));
    return { ok: true, data: checks };
  }

  /** Active ruleset requirements for the branch (GET /repos/{o}/{r}/rules/branches/{branch}). */
  async rulesetRequired(owner: string, repo: string, branch: string, token: string | null, opts?: ReadOpts): Promise<ProviderResult<GhRequiredCheck[]>> {
    const r = await this.get<Array<{ type: string; parameters?: { required_status_checks?: Array<{ context: string; integration_id?: number }> } }>>(
      `${repoPath(owner, repo)}/rules/branches/${encodeURIComponent(branch)}?per_page=100`,
      token,
      opts,
    );
    if (!r.ok) return r.reason === 'not_found' ? { ok: true, data: [] } : r;
    if (!Array.isArray(r.data)) return { ok: false, reason: 'invalid_response', status: 200 };
    const out: GhRequiredCheck[] = [];
    for (const rule of r.data) {
      if (rule?.type !== 'required_status_checks') continue;
      for (const c of rule.parameters?.required_status_checks ?? [])
        out.push({ context: String(c.context), integration_id: typeof c.integration_id === 'number' ? c.integration_id : null });
    }
    return { ok: true, data: out };
  }
}

/** Whether the operator's base URL is a loopback URL (then loopback is allowed for it). */
function loopbackBase(base: string): boolean {
  try {
    return isLoopbackUrl(new URL(base));
  } catch {
    return false;
  }
}

const repoPath = (owner: string, repo: string) => `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`;
/** A path for logs: numbers and SHAs kept, no query string (never a token). */
const safePath = (p: string) => p.split('?')[0].slice(0, 200);
