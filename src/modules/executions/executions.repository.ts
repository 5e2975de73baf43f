import { Injectable } from '@nestjs/common';
import { Sql, type Tx } from '../../database/sql.service';
import type { EvidenceLinkType, ExecutionState } from './execution-rules';

/** An actor projection as stored rows give it (null id when the member is gone). */
export interface ActorCols {
  id: string | null;
  display_name: string | null;
  type: string | null;
  removed: boolean | null;
}

export interface ExecutionRow {
  id: string;
  issue_id: string;
  current_project_id: string | null;
  project_id_at_creation: string | null;
  state: ExecutionState;
  state_version: number;
  reason: string | null;
  summary: string | null;
  outcome: string | null;
  failure: string | null;
  harness_kind: string | null;
  external_run_id: string | null;
  agent_member_id: string;
  agent: ActorCols;
  created_by: ActorCols | null;
  created_at: Date;
  updated_at: Date;
  ended_at: Date | null;
}

export interface TransitionRow {
  id: string;
  from_state: ExecutionState | null;
  to_state: ExecutionState;
  state_version: number;
  via: string;
  reason: string | null;
  actor: ActorCols | null;
  created_at: Date;
}

export interface EvidenceRow {
  id: string;
  link_type: EvidenceLinkType;
  target_id: string;
  created_by: ActorCols | null;
  created_at: Date;
}

export interface NewExecution {
  id: string;
  issueId: string;
  agentMemberId: string;
  createdByMemberId: string | null;
  projectIdAtCreation: string | null;
  harnessKind: string | null;
  externalRunId: string | null;
  reason: string | null;
  summary: string | null;
}

export interface ExecutionListFilter {
  issueId?: string;
  state?: ExecutionState;
  agentMemberId?: string;
  /** Readable project ids, or 'all'. */
  projects: 'all' | string[];
  /** Whether projectless issues are readable. */
  projectless: boolean;
}

/** Text fields a move may set (absent = unchanged). */
export interface MoveTexts {
  reason?: string | null;
  summary?: string | null;
  outcome?: string | null;
  failure?: string | null;
}

/** A transition row's own fields (its execution, states and version come with the write that records it). */
export interface TransitionRecord {
  id: string;
  actorMemberId: string | null;
  via: string;
  reason: string | null;
}

/** A locked execution: what a move decides on. */
export interface LockedExecution {
  state: ExecutionState;
  state_version: number;
  agent_member_id: string;
  issue_id: string;
  current_project_id: string | null;
}

const actorJson = (alias: string) =>
  `CASE WHEN ${alias}.id IS NULL THEN NULL ELSE json_build_object('id', ${alias}.id, 'display_name', ${alias}.display_name, 'type', ${alias}.type, 'removed', ${alias}.removed_at IS NOT NULL) END`;

const SELECT = `SELECT e.id, e.issue_id, i.project_id AS current_project_id, e.project_id_at_creation, e.state, e.state_version,
    e.reason, e.summary, e.outcome, e.failure, e.harness_kind, e.external_run_id, e.agent_member_id,
    coalesce(${actorJson('ag')}, json_build_object('id', e.agent_member_id, 'display_name', NULL, 'type', 'agent', 'removed', true)) AS agent,
    ${actorJson('cb')} AS created_by, e.created_at, e.updated_at, e.ended_at
  FROM agent_executions e
  JOIN issues i ON i.org_id = e.org_id AND i.id = e.issue_id
  LEFT JOIN members ag ON ag.org_id = e.org_id AND ag.id = e.agent_member_id
  LEFT JOIN members cb ON cb.org_id = e.org_id AND cb.id = e.created_by_member_id`;

/** Agent executions, their transitions and evidence (tables `agent_executions`, `agent_execution_transitions`, `agent_execution_evidence`). */
@Injectable()
export class ExecutionsRepository {
  constructor(private readonly sql: Sql) {}

  async find(orgId: string, id: string, m?: Tx): Promise<ExecutionRow | null> {
    return (await this.sql.row<ExecutionRow>(`${SELECT} WHERE e.org_id = $1 AND e.id = $2`, [orgId, id], m)) ?? null;
  }

  /**
   * Locks the execution row for the rest of the transaction; answers its state and version, and its
   * issue's current project (for the timeline entry of a move).
   */
  async lock(orgId: string, id: string, m: Tx): Promise<LockedExecution | null> {
    return (
      ((await this.sql.row(
        `SELECT e.state, e.state_version, e.agent_member_id, e.issue_id, i.project_id AS current_project_id
           FROM agent_executions e LEFT JOIN issues i ON i.org_id = e.org_id AND i.id = e.issue_id
          WHERE e.org_id = $1 AND e.id = $2 FOR UPDATE OF e`,
        [orgId, id],
        m,
      )) as LockedExecution | undefined) ?? null
    );
  }

  /** Inserts the execution (`assigned`, version 1) and its first transition row, in one statement. */
  async insert(orgId: string, e: NewExecution, t: TransitionRecord, m: Tx): Promise<void> {
    await this.sql.run(
      `WITH e AS (
         INSERT INTO agent_executions (org_id, id, issue_id, agent_member_id, created_by_member_id, project_id_at_creation, harness_kind, external_run_id, reason, summary)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING org_id, id, state, state_version)
       INSERT INTO agent_execution_transitions (org_id, id, execution_id, from_state, to_state, state_version, actor_member_id, via, reason)
       SELECT e.org_id, $11, e.id, NULL, e.state, e.state_version, $12, $13, $14 FROM e`,
      [
        orgId,
        e.id,
        e.issueId,
        e.agentMemberId,
        e.createdByMemberId,
        e.projectIdAtCreation,
        e.harnessKind,
        e.externalRunId,
        e.reason,
        e.summary,
        t.id,
        t.actorMemberId,
        t.via,
        t.reason,
      ],
      m,
    );
  }

  /**
   * Moves the execution from `from` at `version` to `to` (version + 1), only if it is still there
   * (a conditional update: a concurrent move makes this answer false), and records the transition
   * row in the same statement. Texts given are set.
   */
  async move(
    orgId: string,
    id: string,
    from: ExecutionState,
    version: number,
    to: ExecutionState,
    texts: MoveTexts,
    t: TransitionRecord,
    m: Tx,
  ): Promise<boolean> {
    const n = await this.sql.run(
      `WITH u AS (
         UPDATE agent_executions SET state = $5, state_version = state_version + 1, updated_at = now(),
                ended_at = CASE WHEN $5 IN ('completed', 'failed', 'cancelled') THEN now() END,
                reason = CASE WHEN $6 THEN $7 ELSE reason END, summary = CASE WHEN $8 THEN $9 ELSE summary END,
                outcome = CASE WHEN $10 THEN $11 ELSE outcome END, failure = CASE WHEN $12 THEN $13 ELSE failure END
          WHERE org_id = $1 AND id = $2 AND state = $3 AND state_version = $4
          RETURNING org_id, id, state, state_version)
       INSERT INTO agent_execution_transitions (org_id, id, execution_id, from_state, to_state, state_version, actor_member_id, via, reason)
       SELECT u.org_id, $14, u.id, $3, u.state, u.state_version, $15, $16, $17 FROM u`,
      [
        orgId,
        id,
        from,
        version,
        to,
        texts.reason !== undefined,
        texts.reason ?? null,
        texts.summary !== undefined,
        texts.summary ?? null,
        texts.outcome !== undefined,
        texts.outcome ?? null,
        texts.failure !== undefined,
        texts.failure ?? null,
        t.id,
        t.actorMemberId,
        t.via,
        t.reason,
      ],
      m,
    );
    return n === 1;
  }

  transitions(orgId: string, executionId: string, m?: Tx): Promise<TransitionRow[]> {
    return this.sql.rows<TransitionRow>(
      `SELECT t.id, t.from_state, t.to_state, t.state_version, t.via, t.reason, ${actorJson('a')} AS actor, t.created_at
         FROM agent_execution_transitions t LEFT JOIN members a ON a.org_id = t.org_id AND a.id = t.actor_member_id
        WHERE t.org_id = $1 AND t.execution_id = $2 ORDER BY t.state_version, t.created_at LIMIT 500`,
      [orgId, executionId],
      m,
    );
  }

  evidence(orgId: string, executionId: string, m?: Tx): Promise<EvidenceRow[]> {
    return this.sql.rows<EvidenceRow>(
      `SELECT v.id, v.link_type, v.target_id, ${actorJson('a')} AS created_by, v.created_at
         FROM agent_execution_evidence v LEFT JOIN members a ON a.org_id = v.org_id AND a.id = v.created_by_member_id
        WHERE v.org_id = $1 AND v.execution_id = $2 ORDER BY v.created_at, v.id LIMIT 500`,
      [orgId, executionId],
      m,
    );
  }

  /** Adds evidence; the existing row when the same link is already there. */
  async addEvidence(
    orgId: string,
    e: { id: string; executionId: string; linkType: EvidenceLinkType; targetId: string; createdBy: string },
    m: Tx,
  ): Promise<EvidenceRow> {
    await this.sql.run(
      `INSERT INTO agent_execution_evidence (org_id, id, execution_id, link_type, target_id, created_by_member_id)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (org_id, execution_id, link_type, target_id) DO NOTHING`,
      [orgId, e.id, e.executionId, e.linkType, e.targetId, e.createdBy],
      m,
    );
    return (await this.sql.row<EvidenceRow>(
      `SELECT v.id, v.link_type, v.target_id, ${actorJson('a')} AS created_by, v.created_at
         FROM agent_execution_evidence v LEFT JOIN members a ON a.org_id = v.org_id AND a.id = v.created_by_member_id
        WHERE v.org_id = $1 AND v.execution_id = $2 AND v.link_type = $3 AND v.target_id = $4`,
      [orgId, e.executionId, e.linkType, e.targetId],
      m,
    ))!;
  }

  /** A page of the executions the filter allows, newest first, with the total. */
  async list(orgId: string, f: ExecutionListFilter, limit: number, offset: number): Promise<{ rows: ExecutionRow[]; total: number }> {
    const where = [
      'e.org_id = $1',
      '($2::uuid IS NULL OR e.issue_id = $2)',
      '($3::text IS NULL OR e.state = $3)',
      '($4::uuid IS NULL OR e.agent_member_id = $4)',
      `((i.project_id IS NULL AND $5::boolean) OR (i.project_id IS NOT NULL AND ($6::boolean OR i.project_id = ANY($7::uuid[]))))`,
    ].join(' AND ');
    const args = [
      orgId,
      f.issueId ?? null,
      f.state ?? null,
      f.agentMemberId ?? null,
      f.projectless,
      f.projects === 'all',
      f.projects === 'all' ? [] : f.projects,
    ];
    const [rows, count] = await Promise.all([
      this.sql.rows<ExecutionRow>(`${SELECT} WHERE ${where} ORDER BY e.created_at DESC, e.id LIMIT $8 OFFSET $9`, [...args, limit, offset]),
      this.sql.row<{ n: number }>(
        `SELECT count(*)::int AS n FROM agent_executions e JOIN issues i ON i.org_id = e.org_id AND i.id = e.issue_id WHERE ${where}`,
        args,
      ),
    ]);
    return { rows, total: count?.n ?? 0 };
  }

  /** The live (not removed) member with this id and type, or null. */
  async liveMember(orgId: string, memberId: string, m?: Tx): Promise<{ id: string; type: string; role: string } | null> {
    return (
      (await this.sql.row<{ id: string; type: string; role: string }>(
        'SELECT id, type, role FROM members WHERE org_id = $1 AND id = $2 AND removed_at IS NULL',
        [orgId, memberId],
        m,
      )) ?? null
    );
  }
}
