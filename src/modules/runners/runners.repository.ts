import { Injectable } from '@nestjs/common';
import { Sql, type Tx } from '../../database/sql.service';
import { type IntakeState, RUNNER_STALE_SECONDS, type RunnerInput } from './runner-rules';

export interface RunnerRow {
  id: string;
  agent_member_id: string;
  agent_display_name: string | null;
  instance_id: string;
  host_id: string | null;
  platform: string;
  arch: string;
  capabilities: string[];
  client_version: string;
  intake_state: IntakeState;
  presence_state: 'connected' | 'stale' | 'offline';
  last_seen_at: Date;
  disconnected_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const PRESENCE = `CASE WHEN r.disconnected_at IS NOT NULL THEN 'offline'
  WHEN r.last_seen_at <= now() - make_interval(secs => ${RUNNER_STALE_SECONDS}) THEN 'stale' ELSE 'connected' END`;
const SELECT = `SELECT r.id, r.agent_member_id, m.display_name AS agent_display_name, r.instance_id, r.host_id, r.platform, r.arch, r.capabilities,
    r.client_version, r.intake_state, ${PRESENCE} AS presence_state, r.last_seen_at, r.disconnected_at, r.created_at, r.updated_at
  FROM runner_installations r LEFT JOIN members m ON m.org_id = r.org_id AND m.id = r.agent_member_id`;

/** Runner installations and their intake history (tables `runner_installations`, `runner_intake_events`). */
@Injectable()
export class RunnersRepository {
  constructor(private readonly sql: Sql) {}

  /** The agent's current installation (not replaced), whatever its presence. */
  async current(orgId: string, agentMemberId: string, m?: Tx): Promise<RunnerRow | null> {
    return (
      (await this.sql.row<RunnerRow>(`${SELECT} WHERE r.org_id = $1 AND r.agent_member_id = $2 AND r.replaced_at IS NULL`, [orgId, agentMemberId], m)) ?? null
    );
  }

  /** As `current`, row-locked for the rest of the transaction. */
  async lockCurrent(orgId: string, agentMemberId: string, m: Tx): Promise<RunnerRow | null> {
    return (
      (await this.sql.row<RunnerRow>(
        `SELECT r.id, r.agent_member_id, NULL AS agent_display_name, r.instance_id, r.host_id, r.platform, r.arch, r.capabilities, r.client_version,
                r.intake_state, ${PRESENCE} AS presence_state, r.last_seen_at, r.disconnected_at, r.created_at, r.updated_at
           FROM runner_installations r WHERE r.org_id = $1 AND r.agent_member_id = $2 AND r.replaced_at IS NULL FOR UPDATE`,
        [orgId, agentMemberId],
        m,
      )) ?? null
    );
  }

  /** Serializes presence writes of one agent until the transaction ends. */
  async lockAgent(orgId: string, agentMemberId: string, m: Tx): Promise<void> {
    await this.sql.run('SELECT pg_advisory_xact_lock(hashtext($1))', [`runner_installations:${orgId}:${agentMemberId}`], m);
  }

  async find(orgId: string, id: string, m?: Tx): Promise<RunnerRow | null> {
    return (await this.sql.row<RunnerRow>(`${SELECT} WHERE r.org_id = $1 AND r.id = $2`, [orgId, id], m)) ?? null;
  }

  async insert(orgId: string, id: string, agentMemberId: string, r: RunnerInput, m: Tx): Promise<void> {
    await this.sql.run(
      `INSERT INTO runner_installations (org_id, id, agent_member_id, instance_id, host_id, platform, arch, capabilities, client_version)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [orgId, id, agentMemberId, r.instanceId, r.hostId, r.platform, r.arch, r.capabilities, r.clientVersion],
      m,
    );
  }

  /** Refreshes the installation: fields, last_seen_at now, connected again. */
  async refresh(orgId: string, id: string, r: RunnerInput, m: Tx): Promise<void> {
    await this.sql.run(
      `UPDATE runner_installations SET host_id = $3, platform = $4, arch = $5, capabilities = $6, client_version = $7, last_seen_at = now(),
              disconnected_at = NULL, updated_at = now() WHERE org_id = $1 AND id = $2`,
      [orgId, id, r.hostId, r.platform, r.arch, r.capabilities, r.clientVersion],
      m,
    );
  }

  /**
   * One statement for the common PUT: refreshes the agent's current installation when it is the
   * one with `instanceId` (as `refresh`, reconnecting it after DELETE) and answers it as written;
   * null when the agent has no current installation with that instance (then the locked path).
   * The row lock of the UPDATE orders it with a concurrent replacement (which holds the row locked
   * until it commits; the refresh then finds the row replaced and answers null).
   */
  async refreshCurrent(orgId: string, agentMemberId: string, r: RunnerInput): Promise<RunnerRow | null> {
    return (
      (await this.sql.row<RunnerRow>(
        `WITH r AS (
           UPDATE runner_installations SET host_id = $4, platform = $5, arch = $6, capabilities = $7, client_version = $8, last_seen_at = now(),
                  disconnected_at = NULL, updated_at = now()
            WHERE org_id = $1 AND agent_member_id = $2 AND replaced_at IS NULL AND instance_id = $3
           RETURNING *)
         ${SELECT.replace('FROM runner_installations r', 'FROM r')}`,
        [orgId, agentMemberId, r.instanceId, r.hostId, r.platform, r.arch, r.capabilities, r.clientVersion],
      )) ?? null
    );
  }

  async markReplaced(orgId: string, id: string, m: Tx): Promise<void> {
    await this.sql.run('UPDATE runner_installations SET replaced_at = now(), updated_at = now() WHERE org_id = $1 AND id = $2', [orgId, id], m);
  }

  /** Explicit disconnect of the agent's current installation; answers whether one was connected. */
  async disconnect(orgId: string, agentMemberId: string, m?: Tx): Promise<boolean> {
    return (
      (await this.sql.run(
        `UPDATE runner_installations SET disconnected_at = now(), updated_at = now()
          WHERE org_id = $1 AND agent_member_id = $2 AND replaced_at IS NULL AND disconnected_at IS NULL`,
        [orgId, agentMemberId],
        m,
      )) > 0
    );
  }

  /** Current installations of the given agents (null = every agent), newest refresh first. */
  list(orgId: string, agentIds: string[] | null): Promise<RunnerRow[]> {
    return this.sql.rows<RunnerRow>(
      `${SELECT} WHERE r.org_id = $1 AND r.replaced_at IS NULL AND ($2::boolean OR r.agent_member_id = ANY($3::uuid[])) ORDER BY r.last_seen_at DESC, r.id LIMIT 500`,
      [orgId, agentIds === null, agentIds ?? []],
    );
  }

  /** Agents a human manages without being an owner or admin: its personal agents and the agents it created. */
  async managedAgentIds(orgId: string, memberId: string): Promise<string[]> {
    const rows = await this.sql.rows<{ id: string }>(
      `SELECT id FROM members WHERE org_id = $1 AND type = 'agent' AND removed_at IS NULL AND (owner_member_id = $2 OR created_by_member_id = $2)`,
      [orgId, memberId],
    );
    return rows.map((r) => r.id);
  }

  /** Sets the intake state; answers the previous one (no row written when unchanged). */
  async setIntake(orgId: string, id: string, to: IntakeState, actorMemberId: string, eventId: string, m: Tx): Promise<IntakeState | null> {
    const cur = await this.sql.row<{ intake_state: IntakeState }>(
      'SELECT intake_state FROM runner_installations WHERE org_id = $1 AND id = $2 FOR UPDATE',
      [orgId, id],
      m,
    );
    if (!cur) return null;
    if (cur.intake_state === to) return cur.intake_state;
    await this.sql.run('UPDATE runner_installations SET intake_state = $3, updated_at = now() WHERE org_id = $1 AND id = $2', [orgId, id, to], m);
    await this.sql.run(
      'INSERT INTO runner_intake_events (org_id, id, runner_id, from_state, to_state, actor_member_id) VALUES ($1, $2, $3, $4, $5, $6)',
      [orgId, eventId, id, cur.intake_state, to, actorMemberId],
      m,
    );
    return cur.intake_state;
  }

  intakeHistory(orgId: string, runnerId: string): Promise<Array<{ from_state: string; to_state: string; created_at: Date }>> {
    return this.sql.rows('SELECT from_state, to_state, created_at FROM runner_intake_events WHERE org_id = $1 AND runner_id = $2 ORDER BY created_at, id', [
      orgId,
      runnerId,
    ]);
  }
}
