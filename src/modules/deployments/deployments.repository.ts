import { Injectable } from '@nestjs/common';
import { Sql, type Tx } from '../../database/sql.service';

/** A deployment_connections row (sealed credentials included; never returned as is). */
export interface ConnectionRow {
  org_id: string;
  id: string;
  provider: 'vercel';
  team_id: string | null;
  project_id: string;
  project_name: string | null;
  token_sealed: string;
  webhook_secret_sealed: string;
  enabled: boolean;
  created_by_member_id: string;
  created_at: Date;
  updated_at: Date;
}

export interface NewConnection {
  orgId: string;
  id: string;
  teamId: string | null;
  projectId: string;
  projectName: string | null;
  tokenSealed: string;
  webhookSecretSealed: string;
  createdByMemberId: string;
}

/** One observation of a signed callback: only normalized identifiers and states. */
export interface Observation {
  orgId: string;
  connectionId: string;
  eventId: string;
  eventType: string;
  deploymentId: string;
  projectId: string;
  eventAt: Date;
  complete: boolean;
  code: string | null;
  /** The authenticated provider snapshot (null when the provider gave none). */
  snapshot: { environment: string | null; readyState: string | null; production: boolean; url: string | null } | null;
}

export interface DeploymentRow {
  deployment_id: string;
  project_id: string;
  last_event_type: string;
  last_event_at: Date;
  environment: string | null;
  ready_state: string | null;
  production: boolean;
  url: string | null;
  verified_at: Date | null;
}

const COLUMNS =
  'org_id, id, provider, team_id, project_id, project_name, token_sealed, webhook_secret_sealed, enabled, created_by_member_id, created_at, updated_at';

/** Deployment-provider connections, their callback observations and the deployment projection. */
@Injectable()
export class DeploymentsRepository {
  constructor(private readonly sql: Sql) {}

  insertConnection(c: NewConnection, m?: Tx): Promise<ConnectionRow | undefined> {
    return this.sql.row<ConnectionRow>(
      `INSERT INTO deployment_connections (org_id, id, provider, team_id, project_id, project_name, token_sealed, webhook_secret_sealed, created_by_member_id)
       VALUES ($1, $2, 'vercel', $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
      [c.orgId, c.id, c.teamId, c.projectId, c.projectName, c.tokenSealed, c.webhookSecretSealed, c.createdByMemberId],
      m,
    );
  }

  listConnections(orgId: string): Promise<ConnectionRow[]> {
    return this.sql.rows<ConnectionRow>(`SELECT ${COLUMNS} FROM deployment_connections WHERE org_id = $1 ORDER BY created_at, id`, [orgId]);
  }

  connection(orgId: string, id: string): Promise<ConnectionRow | undefined> {
    return this.sql.row<ConnectionRow>(`SELECT ${COLUMNS} FROM deployment_connections WHERE org_id = $1 AND id = $2`, [orgId, id]);
  }

  /** The enabled connection with this opaque id, whatever its organization (the callback knows only the id). */
  enabledConnectionById(id: string): Promise<ConnectionRow | undefined> {
    return this.sql.row<ConnectionRow>(`SELECT ${COLUMNS} FROM deployment_connections WHERE id = $1 AND enabled`, [id]);
  }

  async deleteConnection(orgId: string, id: string): Promise<boolean> {
    return (await this.sql.run('DELETE FROM deployment_connections WHERE org_id = $1 AND id = $2', [orgId, id])) > 0;
  }

  /**
   * Records one observation atomically (call inside a transaction): the event row (the first copy of
   * an event id wins; a replay only completes an incomplete one) and the deployment reference with
   * the newest authenticated snapshot. Returns whether it was a duplicate and the stored outcome.
   */
  async record(o: Observation, m: Tx): Promise<{ duplicate: boolean; complete: boolean; code: string | null }> {
    const inserted = await this.sql.row<{ event_id: string }>(
      `INSERT INTO deployment_events (org_id, connection_id, event_id, event_type, deployment_id, complete, code)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (org_id, connection_id, event_id) DO NOTHING RETURNING event_id`,
      [o.orgId, o.connectionId, o.eventId, o.eventType, o.deploymentId, o.complete, o.code],
      m,
    );
    let outcome = { duplicate: false, complete: o.complete, code: o.code };
    if (!inserted) {
      const stored = await this.sql.row<{ complete: boolean; code: string | null }>(
        `UPDATE deployment_events SET complete = complete OR $4, code = CASE WHEN complete OR $4 THEN NULL ELSE $5 END, updated_at = now()
         WHERE org_id = $1 AND connection_id = $2 AND event_id = $3 RETURNING complete, code`,
        [o.orgId, o.connectionId, o.eventId, o.complete, o.code],
        m,
      );
      outcome = { duplicate: true, complete: stored?.complete ?? o.complete, code: stored ? stored.code : o.code };
    }
    const s = o.snapshot;
    await this.sql.run(
      `INSERT INTO deployments (org_id, connection_id, deployment_id, project_id, last_event_type, last_event_at, environment, ready_state, production, url, verified_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, CASE WHEN $11::boolean THEN now() END)
       ON CONFLICT (org_id, connection_id, deployment_id) DO UPDATE SET
         last_event_type = CASE WHEN EXCLUDED.last_event_at >= deployments.last_event_at THEN EXCLUDED.last_event_type ELSE deployments.last_event_type END,
         last_event_at = GREATEST(EXCLUDED.last_event_at, deployments.last_event_at),
         environment = CASE WHEN $11::boolean THEN EXCLUDED.environment ELSE deployments.environment END,
         ready_state = CASE WHEN $11::boolean THEN EXCLUDED.ready_state ELSE deployments.ready_state END,
         production = CASE WHEN $11::boolean THEN EXCLUDED.production ELSE deployments.production END,
         url = CASE WHEN $11::boolean THEN EXCLUDED.url ELSE deployments.url END,
         verified_at = CASE WHEN $11::boolean THEN now() ELSE deployments.verified_at END,
         updated_at = now()`,
      [
        o.orgId,
        o.connectionId,
        o.deploymentId,
        o.projectId,
        o.eventType,
        o.eventAt,
        s?.environment ?? null,
        s?.readyState ?? null,
        s?.production ?? false,
        s?.url ?? null,
        s !== null,
      ],
      m,
    );
    return outcome;
  }

  /** The deployment projection of a connection (newest first). */
  deployments(orgId: string, connectionId: string): Promise<DeploymentRow[]> {
    return this.sql.rows<DeploymentRow>(
      `SELECT deployment_id, project_id, last_event_type, last_event_at, environment, ready_state, production, url, verified_at
       FROM deployments WHERE org_id = $1 AND connection_id = $2 ORDER BY last_event_at DESC, deployment_id LIMIT 100`,
      [orgId, connectionId],
    );
  }

  /** How many observations a connection has recorded (tests and diagnostics). */
  async eventCount(orgId: string, connectionId: string): Promise<number> {
    const r = await this.sql.row<{ n: number }>('SELECT count(*)::int AS n FROM deployment_events WHERE org_id = $1 AND connection_id = $2', [
      orgId,
      connectionId,
    ]);
    return r?.n ?? 0;
  }
}
