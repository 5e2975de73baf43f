import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Actor } from '../../common/auth/principal';
import { Errors } from '../../common/errors/domain-error';
import { DomainEvents, IssueActivityEvent, snapshotOf } from '../../common/events/domain-events';
import { type ExecutionState, executionConflict, isTerminal } from './execution-rules';
import { type ExecutionRow, ExecutionsRepository, type LockedExecution, type MoveTexts } from './executions.repository';

export interface CreateExecutionInput {
  issueId: string;
  projectId: string | null;
  agentMemberId: string;
  harnessKind: string | null;
  externalRunId: string | null;
  reason?: string | null;
  summary?: string | null;
}

/**
 * The writes every execution path shares (HTTP routes, attention contract, runner leases), inside
 * the caller's transaction: create (always `assigned`, version 1) and fenced moves. Each records a
 * transition row (unique per resulting version) and stages an issue timeline entry.
 */
@Injectable()
export class ExecutionWriter {
  constructor(
    private readonly executions: ExecutionsRepository,
    private readonly events: DomainEvents,
  ) {}

  async create(m: EntityManager, actor: Actor, input: CreateExecutionInput): Promise<ExecutionRow> {
    return (await this.executions.find(actor.orgId, await this.insert(m, actor, input), m))!;
  }

  /** `create` without reading the new execution back (a runner claim only links its id). */
  async insert(m: EntityManager, actor: Actor, input: CreateExecutionInput): Promise<string> {
    const id = randomUUID();
    await this.executions.insert(
      actor.orgId,
      {
        id,
        issueId: input.issueId,
        agentMemberId: input.agentMemberId,
        createdByMemberId: actor.memberId,
        projectIdAtCreation: input.projectId,
        harnessKind: input.harnessKind,
        externalRunId: input.externalRunId,
        reason: input.reason ?? null,
        summary: input.summary ?? null,
      },
      { id: randomUUID(), actorMemberId: actor.memberId, via: 'create', reason: null },
      m,
    );
    await this.events.stage(
      m,
      new IssueActivityEvent(actor.orgId, input.issueId, input.projectId, actor.memberId, snapshotOf(actor), 'agent_execution.created', {
        execution_id: id,
        agent_member_id: input.agentMemberId,
      }),
    );
    return id;
  }

  /**
   * Locks the execution and moves it to `to`. `expectedVersion` (when given) must be the current
   * `state_version` (409 `STALE_STATE_VERSION`). `allowed(from)` decides the move (409 with the
   * rule's code otherwise); terminal executions are 409 `EXECUTION_TERMINAL`.
   */
  async move(
    m: EntityManager,
    actor: Actor,
    executionId: string,
    to: ExecutionState,
    opts: { expectedVersion?: number; via: 'transition' | 'cancel' | 'attention' | 'runner'; texts?: MoveTexts; check?: (from: ExecutionState) => void },
  ): Promise<{ from: ExecutionState; version: number }> {
    const cur = await this.executions.lock(actor.orgId, executionId, m);
    if (!cur) throw Errors.notFound('Execution not found');
    if (opts.expectedVersion !== undefined && cur.state_version !== opts.expectedVersion) {
      throw executionConflict('STALE_STATE_VERSION', 'expected_state_version is stale; reread the execution and retry', {
        current_state_version: cur.state_version,
      });
    }
    if (isTerminal(cur.state)) throw executionConflict('EXECUTION_TERMINAL', `The execution is ${cur.state}; terminal executions do not move`);
    opts.check?.(cur.state);
    return this.step(m, actor, executionId, cur, to, opts.via, opts.texts ?? {});
  }

  /**
   * Locks the execution once and moves it along `path(its state)` (none: left as it is), each step a
   * recorded transition with its timeline entry, as `move` makes them (via `runner`: the lease sync's moves).
   */
  async moveAlong(m: EntityManager, actor: Actor, executionId: string, path: (from: ExecutionState) => readonly ExecutionState[]): Promise<void> {
    let cur = await this.executions.lock(actor.orgId, executionId, m);
    if (!cur) return;
    for (const to of path(cur.state)) {
      const { version } = await this.step(m, actor, executionId, cur, to, 'runner', {});
      cur = { ...cur, state: to, state_version: version };
    }
  }

  /** One move of the locked execution `cur` (conditional on its state and version), its transition row and timeline entry. */
  private async step(
    m: EntityManager,
    actor: Actor,
    executionId: string,
    cur: LockedExecution,
    to: ExecutionState,
    via: 'transition' | 'cancel' | 'attention' | 'runner',
    texts: MoveTexts,
  ): Promise<{ from: ExecutionState; version: number }> {
    const transition = { id: randomUUID(), actorMemberId: actor.memberId, via, reason: texts.reason ?? null };
    const ok = await this.executions.move(actor.orgId, executionId, cur.state, cur.state_version, to, texts, transition, m);
    if (!ok) throw executionConflict('STALE_STATE_VERSION', 'The execution changed concurrently; reread and retry');
    const version = cur.state_version + 1;
    await this.events.stage(
      m,
      new IssueActivityEvent(actor.orgId, cur.issue_id, cur.current_project_id, actor.memberId, snapshotOf(actor), 'agent_execution.state_changed', {
        execution_id: executionId,
        from_state: cur.state,
        to_state: to,
        state_version: version,
      }),
    );
    return { from: cur.state, version };
  }
}
