import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource, type EntityManager } from 'typeorm';
import type { Actor } from '../../../../common/auth/principal';
import { AttentionRepository } from '../../../executions/attention.repository';
import { AccessPolicyService, atLeast } from '../../../../common/access/access-policy.service';
import { DomainError, Errors } from '../../../../common/errors/domain-error';
import { isUniqueViolation } from '../../../../common/errors/pg-errors';
import { DependenciesRepository } from '../../../dependencies/dependencies.repository';
import { requestHash, SERVICE_LOCAL_RUNNER } from '../../../executions/execution-rules';
import { ExecutionWriter } from '../../../executions/execution-writer.service';
import { ExecutionsRepository } from '../../../executions/executions.repository';
import { syncExecution } from '../../lease-executions';
import { LeasesRepository } from '../../leases.repository';
import { type ClaimInput, newToken, parseClaimBody } from '../../runner-rules';
import { toLease } from '../../runners.mapper';
import { RunnersRepository } from '../../runners.repository';
import type { LeaseClaimResponse } from '../../runners.response';
import { ClaimLeaseCommand } from './claim-lease.command';

const held = () => Errors.conflict('The issue is leased by another runner', 'RUNNER_LEASE_HELD');

/**
 * Atomic claim of an issue for the agent's current, connected, active runner. Checks in order:
 * issue unreadable 404; view-only 403 RUNNER_ISSUE_READ_ONLY; the runner (409
 * RUNNER_NOT_REGISTERED, RUNNER_NOT_CONNECTED, RUNNER_INTAKE_PAUSED); archived 409
 * RUNNER_ISSUE_ARCHIVED; done/cancelled 409 RUNNER_ISSUE_TERMINAL; not assigned to the agent 409
 * RUNNER_ISSUE_NOT_ASSIGNED; an unsatisfied blocker 409 RUNNER_ISSUE_BLOCKED; a live lease 409
 * RUNNER_LEASE_HELD (RUNNER_LEASE_UNCERTAIN while its outcome is unknown). Claims of one issue are
 * serialized (advisory lock) and the partial unique index keeps one live lease per issue; expired
 * leases are closed first, and a pre-intent lease of a runner that is no longer current is replaced.
 * The same idempotencyKey replays: an untouched, unexpired, pre-intent active lease of this runner
 * gets a new token (`token_reissued: true`, the previous one stops working); other replays answer
 * `token: null`.
 */
@CommandHandler(ClaimLeaseCommand)
export class ClaimLeaseHandler implements ICommandHandler<ClaimLeaseCommand, { status: number; body: LeaseClaimResponse }> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
    private readonly runners: RunnersRepository,
    private readonly leases: LeasesRepository,
    private readonly dependencies: DependenciesRepository,
    private readonly writer: ExecutionWriter,
    private readonly executions: ExecutionsRepository,
    private readonly attention: AttentionRepository,
  ) {}

  async execute({ actor, body }: ClaimLeaseCommand): Promise<{ status: number; body: LeaseClaimResponse }> {
    const input = parseClaimBody(body);
    const hash = requestHash({ issueId: input.issueId, humanAttention: input.humanAttention });
    const issue = await this.access.assertIssueRead(actor, input.issueId);
    if (!atLeast(issue.accessLevel, 'edit')) throw new DomainError(403, 'RUNNER_ISSUE_READ_ONLY', "Claiming needs edit access to the issue's project");
    try {
      return await this.db.transaction(async (m) => {
        await this.leases.lockIssue(actor.orgId, issue.id, m);
        const runner = await this.runners.current(actor.orgId, actor.memberId, m);
        if (!runner) throw Errors.conflict('Register the runner (PUT runners/self) before claiming', 'RUNNER_NOT_REGISTERED');
        if (runner.presence_state !== 'connected')
          throw Errors.conflict(`The runner is ${runner.presence_state}; refresh it before claiming`, 'RUNNER_NOT_CONNECTED');

        const prior = await this.leases.byClaimKey(actor.orgId, actor.memberId, input.idempotencyKey, m);
        if (prior) {
          if (prior.request_hash !== hash) throw Errors.conflict('This idempotencyKey was already used for another issue', 'IDEMPOTENCY_KEY_REUSED');
          const untouched = prior.state === 'active' && !prior.expired && prior.sequence === 0 && prior.phase === 'pre_intent' && prior.runner_id === runner.id;
          if (!untouched) return { status: 200, body: { lease: toLease(prior), token: null, token_reissued: false } };
          const t = newToken();
          await this.leases.reissue(actor.orgId, prior, t.hash, m);
          return { status: 200, body: { lease: toLease((await this.leases.find(actor.orgId, prior.id, m))!), token: t.token, token_reissued: true } };
        }

        if (runner.intake_state === 'paused') throw Errors.conflict('Runner intake is paused; a human resumes it', 'RUNNER_INTAKE_PAUSED');
        if (issue.archivedAt) throw Errors.conflict('The issue is archived', 'RUNNER_ISSUE_ARCHIVED');
        if (issue.status === 'done' || issue.status === 'cancelled') throw Errors.conflict(`The issue is ${issue.status}`, 'RUNNER_ISSUE_TERMINAL');
        if (!(await this.leases.isAssignee(actor.orgId, issue.id, actor.memberId, m)))
          throw Errors.conflict('The issue is not assigned to this agent', 'RUNNER_ISSUE_NOT_ASSIGNED');
        if (!input.humanAttention && (await this.dependencies.isBlocked(actor.orgId, issue.id, m))) {
          throw Errors.conflict('The issue has an unsatisfied blocker', 'RUNNER_ISSUE_BLOCKED');
        }
        const resume = input.humanAttention ? await this.resumeSource(actor, issue.id, runner.id, input.humanAttention, m) : null;

        await this.leases.expireDueOfIssue(actor.orgId, issue.id, m);
        const live = await this.leases.liveOfIssue(actor.orgId, issue.id, m);
        if (live) {
          if (live.state === 'uncertain')
            throw Errors.conflict('The last lease of this issue has an uncertain outcome; it is not replaced automatically', 'RUNNER_LEASE_UNCERTAIN');
          const provenOrphan = !live.runner_live && live.phase === 'pre_intent' && live.runner_id !== runner.id;
          // a human-attention resume takes over its own source lease (same runner installation)
          const ownSource = resume !== null && live.id === resume.sourceLeaseId && live.state === 'active';
          if (!provenOrphan && !ownSource) throw held();
          await this.leases.markReplaced(actor.orgId, live.id, m);
          // the replaced orphan's execution never started work: it is cancelled with it
          if (!ownSource) await syncExecution(m, this.writer, this.executions, actor, live.execution_id, 'cancelled');
        }
        const id = randomUUID();
        const executionId =
          resume?.executionId ??
          (
            await this.writer.create(m, actor, {
              issueId: issue.id,
              projectId: issue.projectId,
              agentMemberId: actor.memberId,
              harnessKind: SERVICE_LOCAL_RUNNER,
              externalRunId: id,
            })
          ).id;
        const t = newToken();
        const generation = await this.leases.nextGeneration(actor.orgId, issue.id, m);
        await this.leases.insert(
          actor.orgId,
          {
            id,
            issueId: issue.id,
            agentMemberId: actor.memberId,
            runnerId: runner.id,
            executionId,
            generation,
            key: input.idempotencyKey,
            requestHash: hash,
            tokenHash: t.hash,
            attentionItemId: resume?.itemId ?? null,
          },
          m,
        );
        return { status: 201, body: { lease: toLease((await this.leases.find(actor.orgId, id, m))!), token: t.token, token_reissued: false } };
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw held();
      throw e;
    }
  }

  /**
   * The checks of a human-attention resume: the execution is this agent's on this issue (409
   * RUNNER_ATTENTION_SOURCE_MISMATCH), `waiting` (409 RUNNER_ATTENTION_EXECUTION_NOT_WAITING) at the
   * expected version (409 STALE_STATE_VERSION); the item is its request, resolved (409
   * RUNNER_ATTENTION_NOT_RESOLVED) at the expected version (409 STALE_ATTENTION_VERSION); the
   * execution's newest lease was held by this same runner installation, hence this host (409
   * RUNNER_ATTENTION_INSTALLATION_MISMATCH); no other resume lease of the item exists in a state
   * other than `orphaned` (409 RUNNER_ATTENTION_ALREADY_CLAIMED).
   */
  private async resumeSource(
    actor: Actor,
    issueId: string,
    runnerId: string,
    ha: NonNullable<ClaimInput['humanAttention']>,
    m: EntityManager,
  ): Promise<{ executionId: string; itemId: string; sourceLeaseId: string }> {
    const mismatch = () => Errors.conflict('The execution and attention item do not belong to this agent and issue', 'RUNNER_ATTENTION_SOURCE_MISMATCH');
    const ex = await this.executions.find(actor.orgId, ha.executionId, m);
    if (!ex || ex.issue_id !== issueId || ex.agent_member_id !== actor.memberId) throw mismatch();
    if (ex.state !== 'waiting') throw Errors.conflict(`The execution is ${ex.state}, not waiting`, 'RUNNER_ATTENTION_EXECUTION_NOT_WAITING');
    if (ex.state_version !== ha.expectedExecutionVersion) {
      throw Errors.conflict('expected_execution_version is stale', 'STALE_STATE_VERSION', { current_state_version: ex.state_version });
    }
    const item = await this.attention.find(actor.orgId, ha.itemId, m);
    if (!item || item.execution_id !== ex.id) throw mismatch();
    if (item.state !== 'resolved') throw Errors.conflict(`The attention item is ${item.state}`, 'RUNNER_ATTENTION_NOT_RESOLVED');
    if (item.version !== ha.expectedAttentionVersion)
      throw Errors.conflict('expected_attention_version is stale', 'STALE_ATTENTION_VERSION', { current_version: item.version });
    const source = await this.leases.newestOfExecution(actor.orgId, ex.id, m);
    if (!source || source.runner_id !== runnerId) {
      throw Errors.conflict("The execution's last lease was held by another runner installation", 'RUNNER_ATTENTION_INSTALLATION_MISMATCH');
    }
    if (await this.leases.attentionClaimed(actor.orgId, item.id, m))
      throw Errors.conflict('This attention item was already resumed', 'RUNNER_ATTENTION_ALREADY_CLAIMED');
    return { executionId: ex.id, itemId: item.id, sourceLeaseId: source.id };
  }
}
