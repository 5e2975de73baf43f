import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { EgressClient } from '../../common/egress/egress-client';
import { isLoopbackUrl } from '../../common/egress/destination';
import { EgressError } from '../../common/egress/egress-error';

/** Why a provider read gave no usable answer (stable codes; never the provider's body). */
export type ProviderFailure = 'unauthorized' | 'not_found' | 'unavailable' | 'invalid_response';

export type ProviderResult<T> = { ok: true; body: T } | { ok: false; failure: ProviderFailure };

/** The fields of a Vercel project this service reads (GET /v9/projects/{id}). */
export interface VercelProject {
  id: string;
  name: string | null;
  accountId: string | null;
}

/** The fields of a Vercel deployment this service reads (GET /v13/deployments/{id}). */
export interface VercelDeployment {
  id: string;
  projectId: string | null;
  teamId: string | null;
  target: string | null;
  readyState: string | null;
  readySubstate: string | null;
  url: string | null;
}

const ID_RE = /^[A-Za-z0-9_.:-]{1,128}$/;
const HOST_RE = /^[a-z0-9.-]{1,253}$/i;
const STATE_RE = /^[A-Z_]{1,32}$/;
const str = (v: unknown, re: RegExp): string | null => (typeof v === 'string' && re.test(v) ? v : null);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Retry delay before attempt `attempt` (1-based): 100 ms, 300 ms, 900 ms…, or the provider's Retry-After up to 2 s. */
function backoffMs(attempt: number, retryAfter: string | string[] | undefined): number {
  const ra = Number(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter);
  if (Number.isFinite(ra) && ra >= 0) return Math.min(ra * 1000, 2000);
  return Math.min(100 * 3 ** (attempt - 1), 2000);
}

/**
 * The Vercel REST API at SERVICE_VERCEL_API_URL, read with a connection's bearer token through the
 * SSRF-safe egress client: one attempt lasts at most SERVICE_PROVIDER_TIMEOUT_MS; 5xx, 429,
 * timeouts and network failures are retried SERVICE_PROVIDER_RETRIES times with backoff. Every
 * failure becomes a stable `ProviderFailure`; a body that is not the expected JSON shape is
 * `invalid_response`. The operator-configured base URL may be a loopback address outside
 * production (local stand-ins); no caller-supplied URL is ever requested.
 */
@Injectable()
export class VercelApiClient {
  private readonly log = new Logger('VercelApi');
  private readonly base: string;
  private readonly allowLoopback: boolean;

  constructor(
    private readonly egress: EgressClient,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.base = config.vercelApiUrl;
    // the configured URL is valid (loadConfig checked it)
    this.allowLoopback = isLoopbackUrl(new URL(this.base)) && config.nodeEnv !== 'production';
  }

  async project(token: string, projectId: string, teamId: string | null): Promise<ProviderResult<VercelProject>> {
    const r = await this.get(token, `/v9/projects/${encodeURIComponent(projectId)}`, teamId);
    if (!r.ok) return r;
    const b = r.body;
    const id = isObject(b) ? str(b.id, ID_RE) : null;
    if (!isObject(b) || !id) return { ok: false, failure: 'invalid_response' };
    const name = typeof b.name === 'string' && b.name.length <= 100 ? b.name : null;
    return { ok: true, body: { id, name, accountId: str(b.accountId, ID_RE) } };
  }

  async deployment(token: string, deploymentId: string, teamId: string | null): Promise<ProviderResult<VercelDeployment>> {
    const r = await this.get(token, `/v13/deployments/${encodeURIComponent(deploymentId)}`, teamId);
    if (!r.ok) return r;
    const b = r.body;
    const id = isObject(b) ? (str(b.id, ID_RE) ?? str(b.uid, ID_RE)) : null;
    if (!isObject(b) || !id) return { ok: false, failure: 'invalid_response' };
    const team = isObject(b.team) ? str(b.team.id, ID_RE) : null;
    return {
      ok: true,
      body: {
        id,
        projectId: str(b.projectId, ID_RE),
        teamId: team ?? str(b.ownerId, ID_RE),
        target: str(b.target, /^[a-z0-9_-]{1,64}$/i),
        readyState: str(b.readyState, STATE_RE),
        readySubstate: str(b.readySubstate, STATE_RE),
        url: str(b.url, HOST_RE),
      },
    };
  }

  private async get(token: string, path: string, teamId: string | null): Promise<ProviderResult<unknown>> {
    const url = `${this.base}${path}${teamId ? `?teamId=${encodeURIComponent(teamId)}` : ''}`;
    const attempts = this.config.providerRetries + 1;
    for (let attempt = 1; ; attempt++) {
      let retryAfter: string | string[] | undefined;
      try {
        const res = await this.egress.request({
          url,
          method: 'GET',
          headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
          timeoutMs: this.config.providerTimeoutMs,
          maxResponseBytes: 512 * 1024,
          allowLoopback: this.allowLoopback,
        });
        if (res.status >= 200 && res.status < 300) {
          try {
            return { ok: true, body: JSON.parse(res.body.toString('utf8')) as unknown };
          } catch {
            return { ok: false, failure: 'invalid_response' };
          }
        }
        if (res.status === 401 || res.status === 403) return { ok: false, failure: 'unauthorized' };
        if (res.status === 404) return { ok: false, failure: 'not_found' };
        if (res.status !== 429 && res.status < 500) return { ok: false, failure: 'invalid_response' };
        retryAfter = res.headers['retry-after'];
        this.log.warn(`Vercel API answered ${res.status} (attempt ${attempt} of ${attempts})`);
      } catch (e) {
        const retryable = e instanceof EgressError && (e.code === 'timeout' || e.code === 'network_error' || e.code === 'dns_failure');
        this.log.warn(`Vercel API request failed: ${e instanceof EgressError ? e.code : 'error'} (attempt ${attempt} of ${attempts})`);
        if (!retryable) return { ok: false, failure: 'unavailable' };
      }
      if (attempt >= attempts) return { ok: false, failure: 'unavailable' };
      await new Promise((r) => setTimeout(r, backoffMs(attempt, retryAfter)));
    }
  }
}
