import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { SecretBox } from '../../common/crypto/secret-box';
import { type GhPull, GithubApi, type ProviderResult } from './github-api';
import { type ConnectionRow, GithubConnectionsRepository } from './github-connections.repository';
import type { PrMetadata } from './pr-links.repository';
import { type PrRef, SHA40 } from './pr-url';

export const GITHUB_SECRETS_PURPOSE = 'github-connections';

/**
 * Provider access of an organization: its connection's token (sealed at rest with the shared
 * SecretBox, bound to the connection row), pull-request reads and their mapping to link metadata.
 * Without a connection, reads are anonymous (public repositories).
 */
@Injectable()
export class GithubProvider {
  private readonly box: SecretBox;

  constructor(
    readonly api: GithubApi,
    private readonly connections: GithubConnectionsRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.box = new SecretBox(config.encryptionKey, GITHUB_SECRETS_PURPOSE);
  }

  seal(orgId: string, connectionId: string, name: 'token' | 'webhook_secret', value: string): string {
    return this.box.sealText(value, `${orgId}:${connectionId}:${name}`);
  }

  open(c: ConnectionRow, name: 'token' | 'webhook_secret'): string | null {
    return this.box.openText(name === 'token' ? c.token_sealed : c.webhook_secret_sealed, `${c.org_id}:${c.id}:${name}`);
  }

  /** The organization's current connection and its token (null: none, or it no longer opens). */
  async access(orgId: string): Promise<{ connection: ConnectionRow; token: string } | null> {
    const c = await this.connections.current(orgId);
    const token = c ? this.open(c, 'token') : null;
    return c && token ? { connection: c, token } : null;
  }

  /** Live pull-request read with the connection's token (anonymous without one). */
  async pull(orgId: string, ref: PrRef, token?: string | null): Promise<ProviderResult<GhPull>> {
    const t = token === undefined ? ((await this.access(orgId))?.token ?? null) : token;
    const r = await this.api.pull(ref.owner, ref.repo, ref.number, t);
    if (r.ok && !isPull(r.data)) return { ok: false, reason: 'invalid_response', status: 200 };
    return r;
  }
}

const isPosInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;

/** Whether a body has the shape of a pull request (numeric ids, head and base). */
export function isPull(p: unknown): p is GhPull {
  const x = p as GhPull;
  return !!x && typeof x === 'object' && isPosInt(x.number) && !!x.head && typeof x.head === 'object' && !!x.base && typeof x.base === 'object';
}

/** Link metadata from a provider pull request; ids only when numeric. */
export function pullMetadata(p: GhPull, ref: PrRef): PrMetadata {
  const merged = p.merged === true || (typeof p.merged_at === 'string' && p.merged_at !== '');
  const status = merged ? 'merged' : p.state === 'closed' ? 'closed' : p.state === 'open' ? (p.draft ? 'draft' : 'open') : 'unknown';
  const head = typeof p.head?.sha === 'string' && SHA40.test(p.head.sha.toLowerCase()) ? p.head.sha.toLowerCase() : null;
  const base = typeof p.base?.sha === 'string' && SHA40.test(p.base.sha.toLowerCase()) ? p.base.sha.toLowerCase() : null;
  const repoId = p.base?.repo && isPosInt(p.base.repo.id) ? p.base.repo.id : null;
  return {
    pr_id: isPosInt(p.id) ? p.id : null,
    github_repository_id: repoId,
    pr_url: ref.url,
    pr_title: typeof p.title === 'string' && p.title.trim() ? p.title.slice(0, 1000) : defaultTitle(ref),
    pr_status: status,
    head_sha: head,
    base_ref: typeof p.base?.ref === 'string' ? p.base.ref.slice(0, 255) : null,
    base_sha: base,
  };
}

export const defaultTitle = (ref: PrRef) => `${ref.owner}/${ref.repo}#${ref.number}`;
