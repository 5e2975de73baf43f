import { Injectable } from '@nestjs/common';
import { Sql, type Tx } from '../../database/sql.service';
import type { IssueAccessRow } from '../../common/access/access.repository';
import { blockedIssuesSql } from '../dependencies/dependencies.repository';
import {
  type IntakeState,
  LEASE_TTL_SECONDS,
  MUTATION_RETENTION_HOURS,
  RECOVERY_TOKEN_SECONDS,
  RECOVERY_TOKENS_KEPT,
  RUNNER_STALE_SECONDS,
} from './runner-rules';

export interface LeaseRow {
  id: string;
  issue_id: string;
  agent_member_id: string;
  runner_id: string;
  execution_id: string | null;
  claim_kind: string;
  attention_item_id: string | null;
  /** Host routing identity of the claiming installation (attention claims: the runnerHostId sent). */
  runner_host_id: string | null;
  /** The agent thread the lease works in (preserved by an attention claim, or reported by its holder). */
  thread_id: string | null;
  /** The attention notification an attention claim consumed. */
  notification_id: string | null;
  /** The workflow verification a verified resume is bound to. */
  verification_event_id: string | null;
  claim_generation: number;
  idempotency_key: string;
  request_hash: string;
  token_hash: string;
  token_reissues: number;
  sequence: number;
  state: string;
  phase: string;
  progress: string | null;
  error_code: string | null;
  /** Whether the lease is past its expiry (database clock). */
  expired: boolean;
  /** Whether its runner is the agent's current, connected installation. */
  runner_live: boolean;
  expires_at: Date;
  created_at: Date;
  updated_at: Date;
  ended_at: Date | null;
}

const SELECT = `SELECT l.id, l.issue_id, l.agent_member_id, l.runner_id, l.execution_id, l.claim_kind, l.attention_item_id, l.runner_host_id, l.thread_id, l.notification_id, l.verification_event_id,
    l.claim_generation, l.idempotency_key, l.request_hash,
    l.token_hash, l.token_reissues, l.sequence, l.state, l.phase, l.progress, l.error_code, l.expires_at <= now() AS expired,
    (r.replaced_at IS NULL AND r.disconnected_at IS NULL AND r.last_seen_at > now() - make_interval(secs => ${RUNNER_STALE_SECONDS})) AS runner_live,
    l.expires_at, l.created_at, l.updated_at, l.ended_at
  FROM runner_leases l JOIN runner_installations r ON r.org_id = l.org_id AND r.id = l.runner_id`;

/** The lease columns a write answers (runner_live: the writer is the live holder). */
const RETURNING = `id, issue_id, agent_member_id, runner_id, execution_id, claim_kind, attention_item_id, runner_host_id, thread_id, notification_id, verification_event_id,
  claim_generation, idempotency_key, request_hash, token_hash, token_reissues, sequence, state, phase, progress, error_code, expires_at <= now() AS expired,
  true AS runner_live, expires_at, created_at, updated_at, ended_at`;

/** What ClaimLeaseHandler.refuseHeld reads (LeasesRepository.claimView). */
export interface ClaimView {
  /** The issue (for the access check; null when none): read here, not by a statement of its own. */
  issue: IssueAccessRow | null;
  runner: { id: string; host_id: string | null; intake_state: IntakeState; connected: boolean } | null;
  key_used: boolean;
  assignee: boolean;
  /** Whether the issue has an unsatisfied blocker (the dependencies module's rule). */
  blocked: boolean;
  lease: Pick<LeaseRow, 'agent_member_id' | 'idempotency_key' | 'runner_id' | 'state' | 'phase' | 'expired' | 'runner_live'> | null;
}

/** The fields one accepted lease write sets. */
export interface LeaseChange {
  state: string;
  phase: string;
  progress: string | null;
  errorCode: string | null;
  renew: boolean;
  /** Sets the lease's thread when it has none yet. */
  threadId: string | null;
}

/** The statement of `claimView`: one constant text, so finding its prepared statement's name does not hash a newly built string on every call. */
const CLAIM_VIEW = `SELECT (SELECT json_build_object('id', i.id, 'project_id', i.project_id, 'number', i.number, 'title', i.title, 'status', i.status,
                        'archived_at', i.archived_at)
                 FROM issues i WHERE i.org_id = $1 AND i.id = $2) AS issue,
              (SELECT json_build_object('id', r.id, 'host_id', r.host_id, 'intake_state', r.intake_state,
                        'connected', r.disconnected_at IS NULL AND r.last_seen_at > now() - make_interval(secs => ${RUNNER_STALE_SECONDS}))
                 FROM runner_installations r WHERE r.org_id = $1 AND r.agent_member_id = $3 AND r.replaced_at IS NULL) AS runner,
              EXISTS (SELECT 1 FROM runner_leases k WHERE k.org_id = $1 AND k.agent_member_id = $3 AND k.idempotency_key = $4) AS key_used,
              EXISTS (SELECT 1 FROM issues i WHERE i.org_id = $1 AND i.id = $2 AND (i.assignee_id = $3
                OR EXISTS (SELECT 1 FROM issue_assignees a WHERE a.org_id = i.org_id AND a.issue_id = i.id AND a.member_id = $3))) AS assignee,
              coalesce((SELECT ${blockedIssuesSql('i')} FROM issues i WHERE i.org_id = $1 AND i.id = $2), false) AS blocked,
              (SELECT json_build_object('agent_member_id', l.agent_member_id, 'idempotency_key', l.idempotency_key, 'runner_id', l.runner_id,
                        'state', l.state, 'phase', l.phase, 'expired', l.expires_at <= now(),
                        'runner_live', r.replaced_at IS NULL AND r.disconnected_at IS NULL AND r.last_seen_at > now() - make_interval(secs => ${RUNNER_STALE_SECONDS}))
                 FROM runner_leases l JOIN runner_installations r ON r.org_id = l.org_id AND r.id = l.runner_id
                WHERE l.org_id = $1 AND l.issue_id = $2 AND l.state IN ('active', 'uncertain')) AS lease`;

/** The statement of `renew`: one constant text, so finding its prepared statement's name does not hash a newly built string on every call. */
const RENEW = `WITH u AS (
           UPDATE runner_leases l SET sequence = l.sequence + 1, expires_at = now() + make_interval(secs => ${LEASE_TTL_SECONDS}), updated_at = now()
             FROM runner_installations r
            WHERE l.org_id = $1 AND l.id = $2 AND l.agent_member_id = $3 AND l.claim_generation = $4 AND l.token_hash = $5 AND l.sequence = $6 - 1
              AND l.state = 'active' AND l.expires_at > now()
              AND r.org_id = l.org_id AND r.id = l.runner_id AND r.replaced_at IS NULL AND r.disconnected_at IS NULL
              AND r.last_seen_at > now() - make_interval(secs => ${RUNNER_STALE_SECONDS})
              AND NOT EXISTS (SELECT 1 FROM runner_lease_mutations mu WHERE mu.org_id = $1 AND mu.lease_id = $2 AND mu.mutation_id = $7)
           RETURNING l.id, l.issue_id, l.agent_member_id, l.runner_id, l.execution_id, l.claim_kind, l.attention_item_id, l.notification_id, l.state, l.phase,
                     l.progress, l.error_code, l.claim_generation, l.sequence, l.expires_at <= now() AS expired, l.expires_at, l.created_at, l.updated_at, l.ended_at),
         rec AS (
           INSERT INTO runner_lease_mutations (org_id, lease_id, mutation_id, sequence, transition, request_hash, response)
           SELECT $1, u.id, $7, u.sequence, 'renew', $8, jsonb_build_object('row', to_jsonb(u)) FROM u)
         SELECT u.*, true AS runner_live FROM u`;

/** Runner leases, recovery tokens and accepted mutations (tables `runner_leases`, `runner_lease_recovery_tokens`, `runner_lease_mutations`). */
@Injectable()
export class LeasesRepository {
  constructor(private readonly sql: Sql) {}

  /** Serializes claims of one issue until the transaction ends. */
  async lockIssue(orgId: string, issueId: string, m: Tx): Promise<void> {
    await this.sql.run('SELECT pg_advisory_xact_lock(hashtext($1))', [`runner_leases:${orgId}:${issueId}`], m);
  }

  async find(orgId: string, id: string, m?: Tx): Promise<LeaseRow | null> {
    return (await this.sql.row<LeaseRow>(`${SELECT} WHERE l.org_id = $1 AND l.id = $2`, [orgId, id], m)) ?? null;
  }

  /**
   * The agent's lease, row-locked (404 for another agent's), with what a stored write under
   * `mutationId` recorded (`prior`: null when the id is unused).
   */
  async lockOwn(
    orgId: string,
    id: string,
    agentMemberId: string,
    mutationId: string,
    m: Tx,
  ): Promise<(LeaseRow & { prior: { request_hash: string; response: unknown } | null }) | null> {
    return (
      (await this.sql.row<LeaseRow & { prior: { request_hash: string; response: unknown } | null }>(
        `${SELECT.replace(
          ' FROM runner_leases l',
          `, (SELECT json_build_object('request_hash', mu.request_hash, 'response', mu.response) FROM runner_lease_mutations mu
                WHERE mu.org_id = l.org_id AND mu.lease_id = l.id AND mu.mutation_id = $4) AS prior FROM runner_leases l`,
        )}
          WHERE l.org_id = $1 AND l.id = $2 AND l.agent_member_id = $3 FOR UPDATE OF l`,
        [orgId, id, agentMemberId, mutationId],
        m,
      )) ?? null
    );
  }

  async byClaimKey(orgId: string, agentMemberId: string, key: string, m: Tx): Promise<LeaseRow | null> {
    return (
      (await this.sql.row<LeaseRow>(
        `${SELECT} WHERE l.org_id = $1 AND l.agent_member_id = $2 AND l.idempotency_key = $3 FOR UPDATE OF l`,
        [orgId, agentMemberId, key],
        m,
      )) ?? null
    );
  }

  /**
   * One unlocked read for the lock-free answer to a losing claim (ClaimLeaseHandler.refuseHeld): the
   * issue itself (for the access check, so a claim reads it no second time),
   * the agent's current installation (id, presence, intake), whether the agent used the claim key
   * already, whether it is an assignee of the issue, whether it is blocked, and its live lease (active or
   * uncertain, expired or not), if any.
   */
  async claimView(orgId: string, issueId: string, memberId: string, key: string): Promise<ClaimView> {
    const row = await this.sql.row<ClaimView>(CLAIM_VIEW, [orgId, issueId, memberId, key]);
    const issue = row!.issue;
    // json carries the timestamp as text
    return { ...row!, issue: issue && { ...issue, archived_at: issue.archived_at === null ? null : new Date(issue.archived_at) } };
  }

  /** Active leases of the issue past their expiry become `expired` (the check on every claim). */
  expireDueOfIssue(orgId: string, issueId: string, m: Tx): Promise<number> {
    return this.sql.run(
      `UPDATE runner_leases SET state = 'expired', ended_at = now(), updated_at = now()
        WHERE org_id = $1 AND issue_id = $2 AND state = 'active' AND expires_at <= now()`,
      [orgId, issueId],
      m,
    );
  }

  /** The worker sweep: every active lease past its expiry becomes `expired` (bounded batch). */
  expireDue(limit = 1000): Promise<number> {
    return this.sql.run(
      `UPDATE runner_leases SET state = 'expired', ended_at = now(), updated_at = now()
        WHERE (org_id, id) IN (SELECT org_id, id FROM runner_leases WHERE state = 'active' AND expires_at <= now() LIMIT $1 FOR UPDATE SKIP LOCKED)`,
      [limit],
    );
  }

  /** The worker sweep: records of accepted lease writes older than MUTATION_RETENTION_HOURS go (bounded batch; index on created_at). */
  pruneMutations(limit = 5000): Promise<number> {
    return this.sql.run(
      `DELETE FROM runner_lease_mutations
        WHERE (org_id, lease_id, mutation_id) IN (
          SELECT org_id, lease_id, mutation_id FROM runner_lease_mutations
           WHERE created_at < now() - make_interval(hours => ${MUTATION_RETENTION_HOURS}) LIMIT $1)`,
      [limit],
    );
  }

  /**
   * An ordinary claim's reads under the issue's lock, in one statement: the agent's lease under the
   * claim key (`prior`, row-locked: a replay), and otherwise the issue's active leases past their
   * expiry become `expired` (the check on every claim) and its live lease (`live`: uncertain, or
   * active and unexpired; row-locked) is answered. The same as byClaimKey, then expireDueOfIssue and
   * liveOfIssue when there is no prior lease; the two row sets are disjoint (a row the expiry writes
   * is not live), so no row is both written and locked here. (A data-modifying WITH runs whether or
   * not the query reads it.)
   */
  async claimState(orgId: string, issueId: string, agentMemberId: string, key: string, m: Tx): Promise<{ prior: LeaseRow | null; live: LeaseRow | null }> {
    const rows = await this.sql.rows<LeaseRow & { slot: 'prior' | 'live' }>(
      `WITH prior AS (${SELECT} WHERE l.org_id = $1 AND l.agent_member_id = $3 AND l.idempotency_key = $4 FOR UPDATE OF l),
         expired AS (
           UPDATE runner_leases SET state = 'expired', ended_at = now(), updated_at = now()
            WHERE org_id = $1 AND issue_id = $2 AND state = 'active' AND expires_at <= now() AND NOT EXISTS (SELECT 1 FROM prior)
           RETURNING id),
         live AS (${SELECT} WHERE l.org_id = $1 AND l.issue_id = $2 AND (l.state = 'uncertain' OR (l.state = 'active' AND l.expires_at > now()))
                    AND NOT EXISTS (SELECT 1 FROM prior) FOR UPDATE OF l)
       SELECT 'prior' AS slot, * FROM prior
       UNION ALL SELECT 'live', * FROM live`,
      [orgId, issueId, agentMemberId, key],
      m,
    );
    const slot = (k: 'prior' | 'live') => {
      const r = rows.find((x) => x.slot === k);
      if (!r) return null;
      const { slot: _slot, ...row } = r;
      return row;
    };
    return { prior: slot('prior'), live: slot('live') };
  }

  async liveOfIssue(orgId: string, issueId: string, m: Tx): Promise<LeaseRow | null> {
    return (
      (await this.sql.row<LeaseRow>(
        `${SELECT} WHERE l.org_id = $1 AND l.issue_id = $2 AND l.state IN ('active', 'uncertain') FOR UPDATE OF l`,
        [orgId, issueId],
        m,
      )) ?? null
    );
  }

  async markReplaced(orgId: string, id: string, m: Tx): Promise<void> {
    await this.sql.run(
      `UPDATE runner_leases SET state = 'replaced', ended_at = now(), updated_at = now() WHERE org_id = $1 AND id = $2 AND state = 'active'`,
      [orgId, id],
      m,
    );
  }

  /** Inserts a claimed lease (generation: the issue's highest + 1) and answers it as written. */
  async insert(
    orgId: string,
    l: {
      id: string;
      issueId: string;
      agentMemberId: string;
      runnerId: string;
      executionId: string;
      key: string;
      requestHash: string;
      tokenHash: string;
      claimKind: 'ordinary' | 'human_attention' | 'attention_resume';
      /** Set for a human-attention resume. */
      attentionItemId?: string | null;
      runnerHostId: string | null;
      threadId?: string | null;
      notificationId?: string | null;
      verificationEventId?: string | null;
    },
    m: Tx,
  ): Promise<LeaseRow> {
    const rows = await this.sql.rows<LeaseRow>(
      `INSERT INTO runner_leases (org_id, id, issue_id, agent_member_id, runner_id, execution_id, claim_generation, idempotency_key, request_hash, token_hash,
                                  claim_kind, attention_item_id, runner_host_id, thread_id, notification_id, verification_event_id, expires_at)
       SELECT $1, $2, $3, $4, $5, $6, coalesce(max(g.claim_generation), 0) + 1, $7, $8, $9, $10, $11, $12, $13, $14, $15,
              now() + make_interval(secs => ${LEASE_TTL_SECONDS})
         FROM runner_leases g WHERE g.org_id = $1 AND g.issue_id = $3
       RETURNING ${RETURNING}`,
      [
        orgId,
        l.id,
        l.issueId,
        l.agentMemberId,
        l.runnerId,
        l.executionId,
        l.key,
        l.requestHash,
        l.tokenHash,
        l.claimKind,
        l.attentionItemId ?? null,
        l.runnerHostId,
        l.threadId ?? null,
        l.notificationId ?? null,
        l.verificationEventId ?? null,
      ],
      m,
    );
    return rows[0]!;
  }

  /**
   * Reissues the token of an untouched lease. The token it replaces becomes a recovery token (one
   * minute) unless it is the original claim token; only the four newest recovery tokens are kept.
   */
  async reissue(orgId: string, lease: LeaseRow, newHash: string, m: Tx): Promise<void> {
    if (lease.token_reissues > 0) {
      await this.sql.run(
        `INSERT INTO runner_lease_recovery_tokens (org_id, lease_id, token_hash, expires_at) VALUES ($1, $2, $3, now() + make_interval(secs => ${RECOVERY_TOKEN_SECONDS}))
         ON CONFLICT DO NOTHING`,
        [orgId, lease.id, lease.token_hash],
        m,
      );
      await this.sql.run(
        `DELETE FROM runner_lease_recovery_tokens WHERE org_id = $1 AND lease_id = $2 AND token_hash NOT IN (
           SELECT token_hash FROM runner_lease_recovery_tokens WHERE org_id = $1 AND lease_id = $2 ORDER BY created_at DESC LIMIT ${RECOVERY_TOKENS_KEPT})`,
        [orgId, lease.id],
        m,
      );
    }
    await this.sql.run(
      `UPDATE runner_leases SET token_hash = $3, token_reissues = token_reissues + 1, updated_at = now()
        WHERE org_id = $1 AND id = $2 AND state = 'active' AND sequence = 0 AND phase = 'pre_intent'`,
      [orgId, lease.id, newHash],
      m,
    );
  }

  /** Whether `hash` is a live recovery token of the lease (one of the four newest, unexpired). */
  async isRecoveryToken(orgId: string, leaseId: string, hash: string, m: Tx): Promise<boolean> {
    return !!(await this.sql.row(
      `SELECT 1 FROM (SELECT token_hash, expires_at FROM runner_lease_recovery_tokens WHERE org_id = $1 AND lease_id = $2 ORDER BY created_at DESC LIMIT ${RECOVERY_TOKENS_KEPT}) t
        WHERE t.token_hash = $3 AND t.expires_at > now()`,
      [orgId, leaseId, hash],
      m,
    ));
  }

  /** Using a recovery token promotes it: it becomes the lease token; every other token is invalid. */
  async promote(orgId: string, leaseId: string, hash: string, m: Tx): Promise<void> {
    await this.sql.run('UPDATE runner_leases SET token_hash = $3, updated_at = now() WHERE org_id = $1 AND id = $2', [orgId, leaseId, hash], m);
    await this.sql.run('DELETE FROM runner_lease_recovery_tokens WHERE org_id = $1 AND lease_id = $2', [orgId, leaseId], m);
  }

  /**
   * The fenced write: applies `c` only if the lease is still held by this runner, generation and
   * token, at sequence `seq - 1`, in an allowed state and (for active leases) unexpired, and records
   * the accepted mutation in the same statement (the written row as `{ row }`, as `renew` keeps it;
   * `storedLeaseResponse` maps it for an exact retry). Answers the lease as written, or null when a
   * fence did not hold (nothing recorded).
   */
  async apply(
    orgId: string,
    id: string,
    fence: { runnerId: string; generation: number; tokenHash: string; sequence: number; fromStates: string[] },
    c: LeaseChange,
    record: { mutationId: string; transition: string; requestHash: string },
    m: Tx,
  ): Promise<LeaseRow | null> {
    const rows = await this.sql.rows<LeaseRow>(
      `WITH u AS (
         UPDATE runner_leases SET sequence = sequence + 1, state = $8, phase = $9, progress = coalesce($10, progress), error_code = coalesce($11, error_code),
                thread_id = coalesce(thread_id, $13::text),
                expires_at = CASE WHEN $12 THEN now() + make_interval(secs => ${LEASE_TTL_SECONDS}) ELSE expires_at END,
                ended_at = CASE WHEN $8 IN ('active', 'uncertain') THEN NULL ELSE now() END, updated_at = now()
          WHERE org_id = $1 AND id = $2 AND runner_id = $3 AND claim_generation = $4 AND token_hash = $5 AND sequence = $6 - 1
            AND state = ANY($7::text[]) AND (state <> 'active' OR expires_at > now())
         RETURNING ${RETURNING}),
       rec AS (
         INSERT INTO runner_lease_mutations (org_id, lease_id, mutation_id, sequence, transition, request_hash, response)
         SELECT $1, u.id, $14, u.sequence, $15, $16, jsonb_build_object('row', to_jsonb(u)) FROM u)
       SELECT * FROM u`,
      [
        orgId,
        id,
        fence.runnerId,
        fence.generation,
        fence.tokenHash,
        fence.sequence,
        fence.fromStates,
        c.state,
        c.phase,
        c.progress,
        c.errorCode,
        c.renew,
        c.threadId,
        record.mutationId,
        record.transition,
        record.requestHash,
      ],
      m,
    );
    return rows[0] ?? null;
  }

  /**
   * A plain renewal in one statement (no transaction, no lock wait beyond the lease row's own): the
   * UPDATE of `apply` for `transition: renew` under every fence of a lease write (the agent's lease,
   * its runner the agent's current connected installation, generation, token, `sequence - 1`,
   * active and unexpired, `mutationId` unused) and the mutation record in the same statement. The
   * record keeps the written row (`{ row }`, the fields `toLease` reads) instead of the mapped
   * response; `storedLeaseResponse` maps it for an exact retry. Null when a fence did not hold (the
   * caller then takes the full path, which answers the fence's error, a retry or a recovery token).
   */
  async renew(
    orgId: string,
    id: string,
    agentMemberId: string,
    fence: { generation: number; tokenHash: string; sequence: number; mutationId: string; requestHash: string },
  ): Promise<LeaseRow | null> {
    return (
      (await this.sql.row<LeaseRow>(RENEW, [
        orgId,
        id,
        agentMemberId,
        fence.generation,
        fence.tokenHash,
        fence.sequence,
        fence.mutationId,
        fence.requestHash,
      ])) ?? null
    );
  }

  /** The newest lease linked to the execution (the source of a human-attention resume), or null. */
  async newestOfExecution(orgId: string, executionId: string, m: Tx): Promise<LeaseRow | null> {
    return (
      (await this.sql.row<LeaseRow>(
        `${SELECT} WHERE l.org_id = $1 AND l.execution_id = $2 ORDER BY l.created_at DESC, l.claim_generation DESC LIMIT 1`,
        [orgId, executionId],
        m,
      )) ?? null
    );
  }

  /**
   * The routing of the agent's own delivery work on the issue: its newest lease there that knows its
   * thread, in any state but `orphaned` (a verified workflow resume binds to it), or null.
   */
  async deliveryRouting(orgId: string, issueId: string, agentMemberId: string, m: Tx): Promise<{ hostId: string | null; threadId: string } | null> {
    const r = await this.sql.row<{ runner_host_id: string | null; thread_id: string }>(
      `SELECT runner_host_id, thread_id FROM runner_leases
        WHERE org_id = $1 AND issue_id = $2 AND agent_member_id = $3 AND thread_id IS NOT NULL AND state <> 'orphaned'
        ORDER BY created_at DESC, claim_generation DESC LIMIT 1`,
      [orgId, issueId, agentMemberId],
      m,
    );
    return r ? { hostId: r.runner_host_id, threadId: r.thread_id } : null;
  }

  /** Whether an attention lease consumed the notification, in any state but `orphaned`. */
  async noticeClaimed(orgId: string, notificationId: string, m: Tx): Promise<boolean> {
    return !!(await this.sql.row(`SELECT 1 FROM runner_leases WHERE org_id = $1 AND notification_id = $2 AND state <> 'orphaned'`, [orgId, notificationId], m));
  }

  /** Whether a resume lease for the attention item exists in any state but `orphaned`. */
  async attentionClaimed(orgId: string, itemId: string, m: Tx): Promise<boolean> {
    return !!(await this.sql.row(`SELECT 1 FROM runner_leases WHERE org_id = $1 AND attention_item_id = $2 AND state <> 'orphaned'`, [orgId, itemId], m));
  }

  /** Whether the agent is an assignee of the issue (look-up of the issues module's assignee columns). */
  async isAssignee(orgId: string, issueId: string, memberId: string, m?: Tx): Promise<boolean> {
    return !!(await this.sql.row(
      `SELECT 1 FROM issues i WHERE i.org_id = $1 AND i.id = $2 AND (i.assignee_id = $3
         OR EXISTS (SELECT 1 FROM issue_assignees a WHERE a.org_id = i.org_id AND a.issue_id = i.id AND a.member_id = $3))`,
      [orgId, issueId, memberId],
      m,
    ));
  }
}
