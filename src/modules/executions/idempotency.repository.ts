import { Injectable } from '@nestjs/common';
import { Sql, type Tx } from '../../database/sql.service';

export interface IdempotencyRow {
  request_hash: string;
  status_code: number | null;
  response: unknown;
}

/** Idempotency keys of the agent-work routes (table `agent_idempotency_keys`). */
@Injectable()
export class IdempotencyRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * Takes the key for this transaction. Answers null when it was free (the caller does the work);
   * otherwise the earlier request's row. A concurrent holder makes this wait on the unique index
   * until it commits (then its row is answered) or rolls back (then the key is taken here).
   */
  async take(m: Tx, orgId: string, memberId: string, scope: string, key: string, hash: string): Promise<IdempotencyRow | null> {
    const taken = await this.sql.row(
      `INSERT INTO agent_idempotency_keys (org_id, member_id, scope, key, request_hash) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT DO NOTHING RETURNING 1 AS ok`,
      [orgId, memberId, scope, key, hash],
      m,
    );
    if (taken) return null;
    const row = await this.sql.row<IdempotencyRow>(
      'SELECT request_hash, status_code, response FROM agent_idempotency_keys WHERE org_id = $1 AND member_id = $2 AND scope = $3 AND key = $4',
      [orgId, memberId, scope, key],
      m,
    );
    return row ?? null;
  }

  /** Records the result the key answers from now on. */
  async complete(m: Tx, orgId: string, memberId: string, scope: string, key: string, status: number, response: unknown): Promise<void> {
    await this.sql.run(
      'UPDATE agent_idempotency_keys SET status_code = $5, response = $6::jsonb WHERE org_id = $1 AND member_id = $2 AND scope = $3 AND key = $4',
      [orgId, memberId, scope, key, status, JSON.stringify(response)],
      m,
    );
  }
}
