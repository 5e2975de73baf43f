import { Injectable } from '@nestjs/common';
import { Sql, type Tx } from '../../database/sql.service';

/** A member's avatar pointer: the stored object behind its `avatar_url` (both null without one). */
export interface AvatarPointer {
  id: string;
  avatar_storage_key: string | null;
  avatar_url: string | null;
}

/** A claimed avatar-cleanup row, and whether a member still shows its object. */
export interface DueAvatarCleanup {
  org_id: string;
  id: string;
  storage_key: string;
  attempts: number;
  in_use: boolean;
}

const CLAIM = `SELECT c.org_id, c.id, c.storage_key, c.attempts,
         EXISTS (SELECT 1 FROM members m WHERE m.org_id = c.org_id AND m.avatar_storage_key = c.storage_key) AS in_use
    FROM avatar_cleanups c`;

/** Statements of member avatars: the pointer on `members` and the durable cleanup queue `avatar_cleanups`. */
@Injectable()
export class AvatarsRepository {
  constructor(private readonly sql: Sql) {}

  /** The avatar pointer of live member `memberId`, or undefined (no such live member). */
  pointer(orgId: string, memberId: string, m?: Tx): Promise<AvatarPointer | undefined> {
    return this.sql.row<AvatarPointer>(
      'SELECT id, avatar_storage_key, avatar_url FROM members WHERE org_id = $1 AND id = $2 AND removed_at IS NULL',
      [orgId, memberId],
      m,
    );
  }

  /**
   * Compare-and-set of the pointer: sets key and URL of live member `memberId` only while its key
   * is still `expected` (null: none). False when it changed meanwhile (or the member went).
   */
  async swap(orgId: string, memberId: string, expected: string | null, next: { key: string; url: string } | null, m: Tx): Promise<boolean> {
    const n = await this.sql.run(
      `UPDATE members SET avatar_storage_key = $4, avatar_url = $5, updated_at = now()
        WHERE org_id = $1 AND id = $2 AND removed_at IS NULL AND avatar_storage_key IS NOT DISTINCT FROM $3`,
      [orgId, memberId, expected, next?.key ?? null, next?.url ?? null],
      m,
    );
    return n === 1;
  }

  /** Whether `key` is the avatar of a member of the organization (the only objects the avatar route serves). */
  async isShown(orgId: string, key: string): Promise<boolean> {
    return !!(await this.sql.row('SELECT 1 FROM members WHERE org_id = $1 AND avatar_storage_key = $2 LIMIT 1', [orgId, key]));
  }

  /** Queues the removal of avatar object `key`, due in `delaySeconds`; returns the queue row id. */
  async queueCleanup(orgId: string, key: string, kind: 'staged' | 'retired', delaySeconds: number, m?: Tx): Promise<string> {
    const r = await this.sql.row<{ id: string }>(
      `INSERT INTO avatar_cleanups (org_id, storage_key, kind, next_attempt_at) VALUES ($1, $2, $3, now() + make_interval(secs => $4)) RETURNING id`,
      [orgId, key, kind, delaySeconds],
      m,
    );
    return r!.id;
  }

  /** Removes queue row `id`; false when it is gone already (a sweep took it). */
  async dropCleanup(orgId: string, id: string, m?: Tx): Promise<boolean> {
    return (await this.sql.run('DELETE FROM avatar_cleanups WHERE org_id = $1 AND id = $2', [orgId, id], m)) === 1;
  }

  /** How many of queue rows `ids` are still queued. */
  async countQueued(orgId: string, ids: readonly string[]): Promise<number> {
    const r = await this.sql.row<{ n: number }>('SELECT count(*)::int AS n FROM avatar_cleanups WHERE org_id = $1 AND id = ANY($2::uuid[])', [orgId, ids]);
    return r!.n;
  }

  /** Makes queue row `id` due now. */
  async dueNow(orgId: string, id: string, m?: Tx): Promise<void> {
    await this.sql.run('UPDATE avatar_cleanups SET next_attempt_at = now() WHERE org_id = $1 AND id = $2', [orgId, id], m);
  }

  /** Queue rows `ids` of the organization, claimed until the transaction ends; rows another sweep holds are skipped. */
  claim(orgId: string, ids: readonly string[], m: Tx): Promise<DueAvatarCleanup[]> {
    return this.sql.rows<DueAvatarCleanup>(`${CLAIM} WHERE c.org_id = $1 AND c.id = ANY($2::uuid[]) FOR UPDATE OF c SKIP LOCKED`, [orgId, ids], m);
  }

  /**
   * Up to `limit` due rows of any organization, oldest due first, claimed until the transaction
   * ends (SKIP LOCKED: several workers sweep at once). Crosses organizations (docs/CITUS.md).
   */
  claimDue(limit: number, m: Tx): Promise<DueAvatarCleanup[]> {
    return this.sql.rows<DueAvatarCleanup>(
      `${CLAIM} WHERE c.next_attempt_at <= now() ORDER BY c.next_attempt_at LIMIT $1 FOR UPDATE OF c SKIP LOCKED`,
      [limit],
      m,
    );
  }

  /** Records failed attempt number `attempts` of row `id` and retries it `delaySeconds` from now. */
  async retryLater(orgId: string, id: string, attempts: number, error: string, delaySeconds: number, m: Tx): Promise<void> {
    await this.sql.run(
      'UPDATE avatar_cleanups SET attempts = $3, last_error = $4, next_attempt_at = now() + make_interval(secs => $5) WHERE org_id = $1 AND id = $2',
      [orgId, id, attempts, error, delaySeconds],
      m,
    );
  }
}
