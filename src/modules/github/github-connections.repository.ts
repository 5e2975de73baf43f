import { Injectable } from '@nestjs/common';
import { Sql, type Tx } from '../../database/sql.service';

export interface ConnectionRow {
  org_id: string;
  id: string;
  token_sealed: string;
  webhook_secret_sealed: string;
  account_login: string | null;
  account_id: string | null;
  verification_mode: 'off' | 'attention';
  enabled: boolean;
  created_by_member_id: string | null;
  created_at: Date;
  updated_at: Date;
}

const COLS = `org_id, id, token_sealed, webhook_secret_sealed, account_login, account_id, verification_mode, enabled, created_by_member_id, created_at, updated_at`;

/** github_connections and github_webhook_deliveries. */
@Injectable()
export class GithubConnectionsRepository {
  constructor(private readonly sql: Sql) {}

  insert(c: Omit<ConnectionRow, 'created_at' | 'updated_at' | 'enabled' | 'verification_mode'>, now: Date, m?: Tx): Promise<ConnectionRow | undefined> {
    return this.sql.row<ConnectionRow>(
      `INSERT INTO github_connections (org_id, id, token_sealed, webhook_secret_sealed, account_login, account_id, created_by_member_id, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) RETURNING ${COLS}`,
      [c.org_id, c.id, c.token_sealed, c.webhook_secret_sealed, c.account_login, c.account_id, c.created_by_member_id, now],
      m,
    );
  }

  list(orgId: string): Promise<ConnectionRow[]> {
    return this.sql.rows<ConnectionRow>(`SELECT ${COLS} FROM github_connections WHERE org_id = $1 ORDER BY created_at, id`, [orgId]);
  }

  get(orgId: string, id: string, m?: Tx): Promise<ConnectionRow | undefined> {
    return this.sql.row<ConnectionRow>(`SELECT ${COLS} FROM github_connections WHERE org_id = $1 AND id = $2`, [orgId, id], m);
  }

  /** The connection named by a webhook URL (its opaque id alone), enabled ones only. */
  enabledById(id: string): Promise<ConnectionRow | undefined> {
    return this.sql.row<ConnectionRow>(`SELECT ${COLS} FROM github_connections WHERE id = $1 AND enabled`, [id]);
  }

  /** The organization's connection used for provider reads: the newest enabled one. */
  current(orgId: string): Promise<ConnectionRow | undefined> {
    return this.sql.row<ConnectionRow>(`SELECT ${COLS} FROM github_connections WHERE org_id = $1 AND enabled ORDER BY created_at DESC, id DESC LIMIT 1`, [
      orgId,
    ]);
  }

  async update(orgId: string, id: string, patch: { verification_mode?: string; enabled?: boolean }, now: Date): Promise<ConnectionRow | undefined> {
    return this.sql.row<ConnectionRow>(
      `UPDATE github_connections SET verification_mode = coalesce($3, verification_mode), enabled = coalesce($4, enabled), updated_at = $5
        WHERE org_id = $1 AND id = $2 RETURNING ${COLS}`,
      [orgId, id, patch.verification_mode ?? null, patch.enabled ?? null, now],
    );
  }

  async delete(orgId: string, id: string): Promise<boolean> {
    return (await this.sql.run('DELETE FROM github_connections WHERE org_id = $1 AND id = $2', [orgId, id])) > 0;
  }

  /** Records a delivery id; false when it was already recorded (a replay). */
  async recordDelivery(orgId: string, connectionId: string, deliveryId: string, event: string, m?: Tx): Promise<boolean> {
    return (
      (await this.sql.run(
        `INSERT INTO github_webhook_deliveries (org_id, connection_id, delivery_id, event) VALUES ($1, $2, $3, $4)
         ON CONFLICT (org_id, connection_id, delivery_id) DO NOTHING`,
        [orgId, connectionId, deliveryId, event],
        m,
      )) > 0
    );
  }
}
