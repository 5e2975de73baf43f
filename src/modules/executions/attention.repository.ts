import { Injectable } from '@nestjs/common';
import { Sql, type Tx } from '../../database/sql.service';
import type { ActorCols } from './executions.repository';

export type AttentionState = 'open' | 'resolved' | 'cancelled';

export interface AttentionRow {
  id: string;
  execution_id: string;
  issue_id: string;
  project_id: string | null;
  requester_member_id: string;
  requester: ActorCols | null;
  resolved_by: ActorCols | null;
  title: string;
  question: string;
  options: string[];
  state: AttentionState;
  version: number;
  answer: string | null;
  resolved_at: Date | null;
  acknowledged_at: Date | null;
  cancelled_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const actorJson = (alias: string) =>
  `CASE WHEN ${alias}.id IS NULL THEN NULL ELSE json_build_object('id', ${alias}.id, 'display_name', ${alias}.display_name, 'type', ${alias}.type, 'removed', ${alias}.removed_at IS NOT NULL) END`;

const SELECT = `SELECT a.id, a.execution_id, e.issue_id, i.project_id, a.requester_member_id, ${actorJson('rq')} AS requester,
    ${actorJson('rb')} AS resolved_by, a.title, a.question, a.options, a.state, a.version, a.answer, a.resolved_at, a.acknowledged_at,
    a.cancelled_at, a.created_at, a.updated_at
  FROM attention_items a
  JOIN agent_executions e ON e.org_id = a.org_id AND e.id = a.execution_id
  JOIN issues i ON i.org_id = e.org_id AND i.id = e.issue_id
  LEFT JOIN members rq ON rq.org_id = a.org_id AND rq.id = a.requester_member_id
  LEFT JOIN members rb ON rb.org_id = a.org_id AND rb.id = a.resolved_by_member_id`;

/** Attention requests of executions (table `attention_items`). */
@Injectable()
export class AttentionRepository {
  constructor(private readonly sql: Sql) {}

  async find(orgId: string, id: string, m?: Tx): Promise<AttentionRow | null> {
    return (await this.sql.row<AttentionRow>(`${SELECT} WHERE a.org_id = $1 AND a.id = $2`, [orgId, id], m)) ?? null;
  }

  listOfExecution(orgId: string, executionId: string, m?: Tx): Promise<AttentionRow[]> {
    return this.sql.rows<AttentionRow>(`${SELECT} WHERE a.org_id = $1 AND a.execution_id = $2 ORDER BY a.created_at, a.id LIMIT 200`, [orgId, executionId], m);
  }

  async insert(
    orgId: string,
    a: { id: string; executionId: string; requesterMemberId: string; title: string; question: string; options: string[] },
    m: Tx,
  ): Promise<void> {
    await this.sql.run(
      `INSERT INTO attention_items (org_id, id, execution_id, requester_member_id, title, question, options) VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb)`,
      [orgId, a.id, a.executionId, a.requesterMemberId, a.title, a.question, JSON.stringify(a.options)],
      m,
    );
  }

  /** Locks the item for the rest of the transaction. */
  async lock(orgId: string, id: string, m: Tx): Promise<{ state: AttentionState; version: number; execution_id: string; acknowledged_at: Date | null } | null> {
    return (
      ((await this.sql.row(
        'SELECT state, version, execution_id, acknowledged_at FROM attention_items WHERE org_id = $1 AND id = $2 FOR UPDATE',
        [orgId, id],
        m,
      )) as { state: AttentionState; version: number; execution_id: string; acknowledged_at: Date | null } | undefined) ?? null
    );
  }

  /** open → resolved at `version` (conditional). */
  async resolve(orgId: string, id: string, version: number, answer: string, resolvedBy: string, m: Tx): Promise<boolean> {
    return (
      (await this.sql.run(
        `UPDATE attention_items SET state = 'resolved', answer = $4, resolved_by_member_id = $5, resolved_at = now(), version = version + 1, updated_at = now()
          WHERE org_id = $1 AND id = $2 AND state = 'open' AND version = $3`,
        [orgId, id, version, answer, resolvedBy],
        m,
      )) === 1
    );
  }

  /** open → cancelled (conditional on the version when given). */
  async cancel(orgId: string, id: string, version: number | null, m: Tx): Promise<boolean> {
    return (
      (await this.sql.run(
        `UPDATE attention_items SET state = 'cancelled', cancelled_at = now(), version = version + 1, updated_at = now()
          WHERE org_id = $1 AND id = $2 AND state = 'open' AND ($3::int IS NULL OR version = $3)`,
        [orgId, id, version],
        m,
      )) === 1
    );
  }

  /** Cancels every open item of an execution (the execution itself is cancelled). */
  async cancelOpenOfExecution(orgId: string, executionId: string, m: Tx): Promise<number> {
    return this.sql.run(
      `UPDATE attention_items SET state = 'cancelled', cancelled_at = now(), version = version + 1, updated_at = now()
        WHERE org_id = $1 AND execution_id = $2 AND state = 'open'`,
      [orgId, executionId],
      m,
    );
  }

  /** The requester's receipt of a resolved answer at `version` (conditional). */
  async acknowledge(orgId: string, id: string, version: number, m: Tx): Promise<boolean> {
    return (
      (await this.sql.run(
        `UPDATE attention_items SET acknowledged_at = now(), version = version + 1, updated_at = now()
          WHERE org_id = $1 AND id = $2 AND state = 'resolved' AND acknowledged_at IS NULL AND version = $3`,
        [orgId, id, version],
        m,
      )) === 1
    );
  }

  /** The fenced waiting → running move consumes the requester's unread resolved answers of the execution. */
  consumeReceipts(orgId: string, executionId: string, requesterMemberId: string, m: Tx): Promise<number> {
    return this.sql.run(
      `UPDATE attention_items SET acknowledged_at = now(), version = version + 1, updated_at = now()
        WHERE org_id = $1 AND execution_id = $2 AND requester_member_id = $3 AND state = 'resolved' AND acknowledged_at IS NULL`,
      [orgId, executionId, requesterMemberId],
      m,
    );
  }

  /**
   * The requester's open requests and unread resolved answers, on issues of readable projects
   * (`projects` ids or 'all'; projectless issues when `projectless`), resolved answers first
   * (newest resolution first), then open requests (newest first); at most `limit` rows.
   */
  requesterQueue(orgId: string, requesterMemberId: string, projects: 'all' | string[], projectless: boolean, limit: number): Promise<AttentionRow[]> {
    // only what the heartbeat shows (no member joins: the heartbeat's kept results are versioned
    // by the tables they read, and names of requesters are not part of an entry)
    return this.sql.rows<AttentionRow>(
      `SELECT a.id, a.execution_id, e.issue_id, i.project_id, a.requester_member_id, NULL::jsonb AS requester, NULL::jsonb AS resolved_by,
              a.title, a.question, a.options, a.state, a.version, a.answer, a.resolved_at, a.acknowledged_at, a.cancelled_at, a.created_at, a.updated_at
         FROM attention_items a
         JOIN agent_executions e ON e.org_id = a.org_id AND e.id = a.execution_id
         JOIN issues i ON i.org_id = e.org_id AND i.id = e.issue_id
        WHERE a.org_id = $1 AND a.requester_member_id = $2 AND (a.state = 'open' OR (a.state = 'resolved' AND a.acknowledged_at IS NULL))
          AND ((i.project_id IS NULL AND $3::boolean) OR (i.project_id IS NOT NULL AND ($4::boolean OR i.project_id = ANY($5::uuid[]))))
        ORDER BY (a.state = 'resolved') DESC, coalesce(a.resolved_at, a.created_at) DESC, a.id
        LIMIT $6`,
      [orgId, requesterMemberId, projectless, projects === 'all', projects === 'all' ? [] : projects, limit],
    );
  }
}
