import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { AuthRepository } from './auth.repository';
import type { AgentPrincipal, HumanPrincipal } from './principal';
import { API_KEY_SHAPE, hashApiKey, hashSessionToken, SESSION_TOKEN_SHAPE } from './tokens';

const LAST_USED_WRITE_INTERVAL_MS = 60_000;

/** Resolves credentials to principals with one indexed query each. */
@Injectable()
export class AuthService {
  /** keyId -> last time this process wrote last_used_at (one write a minute per key, not one per request). */
  private readonly lastUsedWrites = new Map<string, number>();

  constructor(
    private readonly repo: AuthRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async fromApiKey(raw: string): Promise<AgentPrincipal | null> {
    if (!API_KEY_SHAPE.test(raw)) return null;
    const r = await this.repo.agentByKeyHash(hashApiKey(raw));
    if (!r) return null;
    this.touchKey(r.org_id, r.id);
    return {
      kind: 'agent',
      keyId: r.id,
      orgId: r.org_id,
      memberId: r.member_id,
      role: r.role,
      displayName: r.display_name,
      agentScope: r.agent_scope,
      ownerMemberId: r.owner_member_id,
      avatarUrl: r.avatar_url,
      grants: r.grants,
    };
  }

  async fromSessionToken(token: string): Promise<HumanPrincipal | null> {
    if (!SESSION_TOKEN_SHAPE.test(token)) return null;
    const r = await this.repo.userBySessionHash(hashSessionToken(this.config.sessionSecret, token));
    if (!r) return null;
    return { kind: 'human', userId: r.user_id, sessionId: r.id, email: r.email, displayName: r.display_name };
  }

  private touchKey(orgId: string, keyId: string): void {
    const now = Date.now();
    const last = this.lastUsedWrites.get(keyId);
    if (last !== undefined && now - last < LAST_USED_WRITE_INTERVAL_MS) return;
    this.lastUsedWrites.set(keyId, now);
    if (this.lastUsedWrites.size > 100_000) this.lastUsedWrites.clear();
    this.repo.touchKey(orgId, keyId).catch(() => this.lastUsedWrites.delete(keyId));
  }
}
