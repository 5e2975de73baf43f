import { Injectable } from '@nestjs/common';
import type { BesideRead } from '../../common/cache/data-versions.repository';
import { Sql, type Tx } from '../../database/sql.service';
import type { HeartbeatPolicy } from './heartbeat-policy';

/** A compact paging run as kept between pages (heartbeat_streams). */
export interface StreamRow {
  run_id: string;
  next_page: number;
  remaining: unknown[];
  run_keys: Record<string, string>;
  run_complete: boolean;
  acked_run_id: string | null;
  acked_keys: Record<string, string>;
  acked_at: Date | null;
}

/** The heartbeat's own tables: saved per-agent policies and paging streams (migration 1765580000000). */
@Injectable()
export class HeartbeatStateRepository {
  constructor(private readonly sql: Sql) {}

  async policy(orgId: string, agentId: string, m?: Tx): Promise<HeartbeatPolicy | null> {
    const r = await this.sql.row(
      `SELECT sections, signal_categories, project_ids, initiative_ids, columns FROM heartbeat_policies WHERE org_id = $1 AND agent_member_id = $2`,
      [orgId, agentId],
      m,
    );
    return r
      ? { sections: r.sections, signal_categories: r.signal_categories, project_ids: r.project_ids, initiative_ids: r.initiative_ids, columns: r.columns }
      : null;
  }

  /** Replaces the whole policy in one statement (atomic). */
  async savePolicy(orgId: string, agentId: string, p: HeartbeatPolicy, by: string, at: Date): Promise<void> {
    await this.sql.run(
      `INSERT INTO heartbeat_policies (org_id, agent_member_id, sections, signal_categories, project_ids, initiative_ids, columns, updated_by_member_id, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (org_id, agent_member_id) DO UPDATE SET sections = EXCLUDED.sections, signal_categories = EXCLUDED.signal_categories,
         project_ids = EXCLUDED.project_ids, initiative_ids = EXCLUDED.initiative_ids, columns = EXCLUDED.columns,
         updated_by_member_id = EXCLUDED.updated_by_member_id, updated_at = EXCLUDED.updated_at`,
      [orgId, agentId, JSON.stringify(p.sections), JSON.stringify(p.signal_categories), p.project_ids, p.initiative_ids, JSON.stringify(p.columns), by, at],
    );
  }

  async deletePolicy(orgId: string, agentId: string): Promise<void> {
    await this.sql.run(`DELETE FROM heartbeat_policies WHERE org_id = $1 AND agent_member_id = $2`, [orgId, agentId]);
  }

  async stream(orgId: string, memberId: string): Promise<StreamRow | null> {
    const r = await this.sql.row<StreamRow>(
      `SELECT run_id, next_page, remaining, run_keys, run_complete, acked_run_id, acked_keys, acked_at FROM heartbeat_streams WHERE org_id = $1 AND member_id = $2`,
      [orgId, memberId],
    );
    return r ?? null;
  }

  /**
   * Which run the stream is on and the page its next cursor must name (no paging payload), as a
   * read made beside the heartbeat's version read (ReadModels.serveWith); `parseHead` reads its value.
   */
  streamHeadRead(memberId: string): BesideRead {
    return { select: (p) => `SELECT run_id::text || ' ' || next_page FROM heartbeat_streams WHERE org_id = $1 AND member_id = ${p(memberId)}` };
  }

  static parseHead(value: string | null): { run_id: string; next_page: number } | null {
    if (!value) return null;
    const [runId, page] = value.split(' ');
    return { run_id: runId, next_page: Number(page) };
  }

  /**
   * Starts a new run (invalidating the cursors of any earlier run); the acknowledged baseline stays.
   * Committed without waiting for the WAL flush (synchronous_commit off for this statement's
   * transaction): a run start lost in a database crash leaves the earlier run in place, so the new
   * run's cursors answer 409 heartbeat_cursor_stale and the agent restarts, as the contract allows.
   * Page advances and acknowledgements stay durable.
   */
  async startRun(
    orgId: string,
    memberId: string,
    runId: string,
    remaining: unknown[],
    runKeys: Record<string, string>,
    complete: boolean,
    at: Date,
  ): Promise<void> {
    await this.sql.run(
      `INSERT INTO heartbeat_streams (org_id, member_id, run_id, next_page, remaining, run_keys, run_complete, updated_at)
       SELECT $1, $2, $3, 2, $4, $5, $6, $7 FROM (SELECT set_config('synchronous_commit', 'off', true)) AS asynchronous_commit
       ON CONFLICT (org_id, member_id) DO UPDATE SET run_id = EXCLUDED.run_id, next_page = 2, remaining = EXCLUDED.remaining,
         run_keys = EXCLUDED.run_keys, run_complete = EXCLUDED.run_complete, updated_at = EXCLUDED.updated_at`,
      [orgId, memberId, runId, JSON.stringify(remaining), JSON.stringify(runKeys), complete, at],
    );
  }

  /**
   * Consumes page `page` of run `runId` (compare-and-set: a cursor is single-use in sequence);
   * false when the run or the page is not the current one (stale cursor).
   */
  async advance(orgId: string, memberId: string, runId: string, page: number, remaining: unknown[], complete: boolean, at: Date): Promise<boolean> {
    const n = await this.sql.run(
      `UPDATE heartbeat_streams SET next_page = next_page + 1, remaining = $5, run_complete = $6, updated_at = $7
        WHERE org_id = $1 AND member_id = $2 AND run_id = $3 AND next_page = $4`,
      [orgId, memberId, runId, page, JSON.stringify(remaining), complete, at],
    );
    return n === 1;
  }

  /** Acknowledges the complete run `runId` (its item fingerprints become the baseline); idempotent. */
  async acknowledge(orgId: string, memberId: string, runId: string, at: Date): Promise<'acked' | 'already' | 'stale'> {
    const r = await this.sql.row<{ outcome: string }>(
      `WITH cur AS (SELECT * FROM heartbeat_streams WHERE org_id = $1 AND member_id = $2 FOR UPDATE),
       upd AS (UPDATE heartbeat_streams s SET acked_run_id = s.run_id, acked_keys = s.run_keys, acked_at = $4
                WHERE s.org_id = $1 AND s.member_id = $2 AND s.run_id = $3 AND s.run_complete AND s.acked_run_id IS DISTINCT FROM $3
                RETURNING 1)
       SELECT CASE WHEN EXISTS (SELECT 1 FROM upd) THEN 'acked'
                   WHEN EXISTS (SELECT 1 FROM cur WHERE cur.acked_run_id = $3) THEN 'already' ELSE 'stale' END AS outcome`,
      [orgId, memberId, runId, at],
    );
    return r!.outcome as 'acked' | 'already' | 'stale';
  }
}
