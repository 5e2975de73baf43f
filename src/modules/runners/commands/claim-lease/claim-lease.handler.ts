import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource, type EntityManager } from 'typeorm';
import type { Actor } from '../../../../common/auth/principal';
import { AttentionRepository } from '../../../executions/attention.repository';
import { AccessPolicyService, atLeast } from '../../../../common/access/access-policy.service';
import { KeyedQueue } from '../../../../common/concurrency/keyed-queue';
import { DomainError, Errors } from '../../../../common/errors/domain-error';
import { isUniqueViolation } from '../../../../common/errors/pg-errors';
import { DependenciesRepository } from '../../../dependencies/dependencies.repository';
import { requestHash, SERVICE_LOCAL_RUNNER } from '../../../executions/execution-rules';
import { ExecutionWriter } from '../../../executions/execution-writer.service';
import { ExecutionsRepository } from '../../../executions/executions.repository';
import { NotificationsReader } from '../../../notifications/notifications.reader';
import {
  type AttentionNotice,
  attentionErrors,
  checkHumanAttentionNotice,
  checkNotice,
  checkNoticeRouting,
  VERIFICATION_COMPLETED,
} from '../../attention-routing';
import { syncExecution } from '../../lease-executions';
import { type ClaimView, type LeaseRow, LeasesRepository } from '../../leases.repository';
import { type ClaimInput, claimFingerprint, newToken, parseClaimBody } from '../../runner-rules';
import { toLease } from '../../runners.mapper';
import { type RunnerRow, RunnersRepository } from '../../runners.repository';
import type { LeaseClaimResponse } from '../../runners.response';
import { ClaimLeaseCommand } from './claim-lease.command';

const held = () => Errors.conflict('The issue is leased by another runner', 'RUNNER_LEASE_HELD');
const alreadyClaimed = () => Errors.conflict('This attention was already resumed', 'RUNNER_ATTENTION_ALREADY_CLAIMED');
/** Lease states after which an attention claim's replay only acknowledges its notification (an orphaned attention may be claimed again). */
const ENDED = ['completed', 'failed', 'aborted', 'expired', 'replaced', 'acknowledged'];

/** The runner fields an ordinary claim needs (its installation and host). */
type ClaimRunner = Pick<RunnerRow, 'id' | 'host_id' | 'intake_state'> & Partial<Pick<RunnerRow, 'presence_state'>>;

/** What an attention claim resumes and how it is routed. */
interface Resume {
  kind: 'human_attention' | 'attention_resume';
  /** The execution a human-attention resume continues (an attention_resume gets a new one). */
  executionId: string | null;
  itemId: string | null;
  sourceLeaseId: string | null;
  notificationId: string | null;
  hostId: string | null;
  threadId: string | null;
  verificationEventId: string | null;
}

/**
 * Atomic claim of an issue for the agent's current, connected, active runner. Checks in order:
 * issue unreadable 404; view-only 403 RUNNER_ISSUE_READ_ONLY; the runner (409
 * RUNNER_NOT_REGISTERED, RUNNER_NOT_CONNECTED, RUNNER_INTAKE_PAUSED); archived 409
 * RUNNER_ISSUE_ARCHIVED; done/cancelled 409 RUNNER_ISSUE_TERMINAL; not assigned to the agent 409
 * RUNNER_ISSUE_NOT_ASSIGNED; an unsatisfied blocker 409 RUNNER_ISSUE_BLOCKED (ordinary claims); the
 * attention conditions (below); a live lease 409 RUNNER_LEASE_HELD (RUNNER_LEASE_UNCERTAIN while
 * its outcome is unknown). Claims of one issue are serialized (advisory lock) and partial unique
 * indexes keep one live lease per issue and one attention lease per notification and per attention
 * item; expired leases are closed first, and a pre-intent lease of a runner that is no longer
 * current is replaced. The same idempotencyKey replays: an untouched, unexpired, pre-intent active
 * lease of this runner gets a new token (`token_reissued: true`, the previous one stops working);
 * an attention lease that ended only acknowledges its notification (`notification_acknowledged`);
 * other replays answer `token: null`.
 */
@CommandHandler(ClaimLeaseCommand)
export class ClaimLeaseHandler implements ICommandHandler<ClaimLeaseCommand, { status: number; body: LeaseClaimResponse }> {
  /** Claims of one issue in this process, one after another (see execute). */
  private readonly issueClaims = new KeyedQueue();

  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
    private readonly runners: RunnersRepository,
    private readonly leases: LeasesRepository,
    private readonly dependencies: DependenciesRepository,
    private readonly writer: ExecutionWriter,
    private readonly executions: ExecutionsRepository,
    private readonly attention: AttentionRepository,
    private readonly notifications: NotificationsReader,
  ) {}

  async execute({ actor, body }: ClaimLeaseCommand): Promise<{ status: number; body: LeaseClaimResponse }> {
    const input = parseClaimBody(body);
    const hash = requestHash(claimFingerprint(input));
    // an ordinary claim reads the issue with the checks up to the holder's, once without the lock (a
    // held issue is answered there, in one statement); an attention claim reads the issue alone
    const ordinary = !input.attention && !input.humanAttention;
    const view = ordinary ? await this.leases.claimView(actor.orgId, input.issueId, actor.memberId, input.idempotencyKey) : null;
    const issue = view ? await this.access.readableIssue(actor, view.issue ?? undefined) : await this.access.assertIssueRead(actor, input.issueId);
    if (!atLeast(issue.accessLevel, 'edit')) throw new DomainError(403, 'RUNNER_ISSUE_READ_ONLY', "Claiming needs edit access to the issue's project");
    const first = view ? this.refuseHeld(issue, view, input, actor) : null;
    // this process's claims of one issue take its lock one after another (no pooled connection held
    // while waiting); one that waited looks again without the lock first: the claim before it most
    // likely holds the issue now, which answers RUNNER_LEASE_HELD in one statement
    return this.issueClaims.run(`${actor.orgId}:${issue.id}`, async (waited) => {
      const checked =
        waited && view ? this.refuseHeld(issue, await this.leases.claimView(actor.orgId, issue.id, actor.memberId, input.idempotencyKey), input, actor) : first;
      try {
        return await this.db.transaction(async (m) => {
          await this.leases.lockIssue(actor.orgId, issue.id, m);
          const runner: ClaimRunner | null = checked ?? (await this.runners.current(actor.orgId, actor.memberId, m));
          if (!runner) throw Errors.conflict('Register the runner (PUT runners/self) before claiming', 'RUNNER_NOT_REGISTERED');
          if (!checked && runner.presence_state !== 'connected')
            throw Errors.conflict(`The runner is ${runner.presence_state}; refresh it before claiming`, 'RUNNER_NOT_CONNECTED');

          // under the lock: a concurrent claim under the same key (not seen by the unlocked read) replays;
          // an ordinary claim also expires due leases and reads the live one in that statement
          const state = ordinary ? await this.leases.claimState(actor.orgId, issue.id, actor.memberId, input.idempotencyKey, m) : null;
          const prior = state ? state.prior : await this.leases.byClaimKey(actor.orgId, actor.memberId, input.idempotencyKey, m);
          if (prior) return this.replay(actor, prior, hash, runner, m);

          if (!checked) {
            if (runner.intake_state === 'paused') throw Errors.conflict('Runner intake is paused; a human resumes it', 'RUNNER_INTAKE_PAUSED');
            if (issue.archivedAt) throw Errors.conflict('The issue is archived', 'RUNNER_ISSUE_ARCHIVED');
            if (issue.status === 'done' || issue.status === 'cancelled') throw Errors.conflict(`The issue is ${issue.status}`, 'RUNNER_ISSUE_TERMINAL');
            if (!(await this.leases.isAssignee(actor.orgId, issue.id, actor.memberId, m)))
              throw Errors.conflict('The issue is not assigned to this agent', 'RUNNER_ISSUE_NOT_ASSIGNED');
            // an attention claim resumes work already under way: blockers do not hold it back
            if (ordinary && (await this.dependencies.isBlocked(actor.orgId, issue.id, m))) {
              throw Errors.conflict('The issue has an unsatisfied blocker', 'RUNNER_ISSUE_BLOCKED');
            }
          }
          const resume = await this.resumeOf(actor, issue.id, runner, input, m);

          let live = state?.live ?? null;
          if (!state) {
            await this.leases.expireDueOfIssue(actor.orgId, issue.id, m);
            live = await this.leases.liveOfIssue(actor.orgId, issue.id, m);
          }
          if (live) {
            if (live.state === 'uncertain')
              throw Errors.conflict('The last lease of this issue has an uncertain outcome; it is not replaced automatically', 'RUNNER_LEASE_UNCERTAIN');
            const provenOrphan = !live.runner_live && live.phase === 'pre_intent' && live.runner_id !== runner.id;
            // a human-attention resume takes over its own source lease (same runner installation)
            const ownSource = resume?.sourceLeaseId != null && live.id === resume.sourceLeaseId && live.state === 'active';
            if (!provenOrphan && !ownSource) throw held();
            await this.leases.markReplaced(actor.orgId, live.id, m);
            // the replaced orphan's execution never started work: it is cancelled with it
            if (!ownSource) await syncExecution(m, this.writer, actor, live.execution_id, 'cancelled');
          }
          const id = randomUUID();
          const executionId =
            resume?.executionId ??
            (await this.writer.insert(m, actor, {
              issueId: issue.id,
              projectId: issue.projectId,
              agentMemberId: actor.memberId,
              harnessKind: SERVICE_LOCAL_RUNNER,
              externalRunId: id,
            }));
          const t = newToken();
          const lease = await this.leases.insert(
            actor.orgId,
            {
              id,
              issueId: issue.id,
              agentMemberId: actor.memberId,
              runnerId: runner.id,
              executionId,
              key: input.idempotencyKey,
              requestHash: hash,
              tokenHash: t.hash,
              claimKind: resume?.kind ?? 'ordinary',
              attentionItemId: resume?.itemId ?? null,
              runnerHostId: resume ? resume.hostId : runner.host_id,
              threadId: resume?.threadId ?? null,
              notificationId: resume?.notificationId ?? null,
              verificationEventId: resume?.verificationEventId ?? null,
            },
            m,
          );
          return { status: 201, body: { lease: toLease(lease), token: t.token, token_reissued: false } };
        });
      } catch (e) {
        if (isUniqueViolation(e, 'runner_leases_notification_uq') || isUniqueViolation(e, 'runner_leases_attention_uq')) throw alreadyClaimed();
        if (isUniqueViolation(e)) throw held();
        throw e;
      }
    });
  }

  /**
   * The lock-free answer to the common losing claim (an ordinary claim of an issue another runner
   * holds): the checks of the locked path in the same order, without a transaction or the issue's
   * advisory lock, so the losers of a race neither queue behind each other nor behind the winner.
   * A failed check answers its own error (the locked path reads the same rows); a live lease that
   * is neither expired, a proven orphan nor this very claim (same agent and key, a concurrent
   * replay) is 409 RUNNER_LEASE_HELD (RUNNER_LEASE_UNCERTAIN). Anything else goes on to the locked
   * path, which decides again: with the runner when every check up to the holder's passed (a free,
   * expired or replaceable issue; the locked path then only reads the key and the leases), null
   * otherwise (no connected runner, a replay: the locked path checks everything). Nothing is
   * written here.
   */
  private refuseHeld(issue: { archivedAt: Date | null; status: string }, view: ClaimView, input: ClaimInput, actor: Actor): ClaimRunner | null {
    const { runner, key_used: keyUsed, assignee, blocked, lease: l } = view;
    if (!runner?.connected || keyUsed) return null;
    if (runner.intake_state === 'paused') throw Errors.conflict('Runner intake is paused; a human resumes it', 'RUNNER_INTAKE_PAUSED');
    if (issue.archivedAt) throw Errors.conflict('The issue is archived', 'RUNNER_ISSUE_ARCHIVED');
    if (issue.status === 'done' || issue.status === 'cancelled') throw Errors.conflict(`The issue is ${issue.status}`, 'RUNNER_ISSUE_TERMINAL');
    if (!assignee) throw Errors.conflict('The issue is not assigned to this agent', 'RUNNER_ISSUE_NOT_ASSIGNED');
    if (blocked) throw Errors.conflict('The issue has an unsatisfied blocker', 'RUNNER_ISSUE_BLOCKED');
    if (!l || (l.state === 'active' && l.expired)) return runner;
    if (l.agent_member_id === actor.memberId && l.idempotency_key === input.idempotencyKey) return runner;
    const replaceable = l.state === 'active' && !l.runner_live && l.phase === 'pre_intent' && l.runner_id !== runner.id;
    if (replaceable) return runner;
    if (l.state === 'uncertain')
      throw Errors.conflict('The last lease of this issue has an uncertain outcome; it is not replaced automatically', 'RUNNER_LEASE_UNCERTAIN');
    throw held();
  }

  /**
   * The same idempotencyKey again (another body under it 409 IDEMPOTENCY_KEY_REUSED): an untouched,
   * unexpired, pre-intent active lease of this runner gets a new token; an attention lease that
   * ended (any closed state but `orphaned`) acknowledges its notification and nothing else; any
   * other replay answers the lease with `token: null`.
   */
  private async replay(
    actor: Actor,
    prior: LeaseRow,
    hash: string,
    runner: ClaimRunner,
    m: EntityManager,
  ): Promise<{ status: number; body: LeaseClaimResponse }> {
    if (prior.request_hash !== hash) throw Errors.conflict('This idempotencyKey was already used for another claim', 'IDEMPOTENCY_KEY_REUSED');
    if (prior.state === 'active' && prior.expired) {
      await this.leases.expireDueOfIssue(actor.orgId, prior.issue_id, m);
      prior = (await this.leases.find(actor.orgId, prior.id, m))!;
    }
    if (prior.notification_id && ENDED.includes(prior.state)) {
      await this.notifications.acknowledgeConsumed(actor, prior.notification_id, m);
      return { status: 200, body: { lease: toLease(prior), token: null, token_reissued: false, notification_acknowledged: true } };
    }
    const untouched = prior.state === 'active' && !prior.expired && prior.sequence === 0 && prior.phase === 'pre_intent' && prior.runner_id === runner.id;
    if (!untouched) return { status: 200, body: { lease: toLease(prior), token: null, token_reissued: false } };
    const t = newToken();
    await this.leases.reissue(actor.orgId, prior, t.hash, m);
    return { status: 200, body: { lease: toLease((await this.leases.find(actor.orgId, prior.id, m))!), token: t.token, token_reissued: true } };
  }

  /**
   * The attention conditions, or null for an ordinary claim. `claimKind: attention_resume` names a
   * notification (`attentionItemId`): the caller's own and visible now, else 404
   * RUNNER_ATTENTION_NOT_FOUND; not consumed by another attention lease in any state but `orphaned`
   * (409 RUNNER_ATTENTION_ALREADY_CLAIMED); about this issue, asking `resume_agent_thread` as the
   * claim's `actionKind` says, and unread (checkNotice). Routed by the notification (a reply to the
   * agent's comment, a workflow verification): host and thread per checkNoticeRouting. With
   * `attention_source: "human_attention"` the notification is the `attention.resolved` answer of the
   * item, and host and thread are checked against the source lease (humanAttentionSource).
   */
  private async resumeOf(actor: Actor, issueId: string, runner: ClaimRunner, input: ClaimInput, m: EntityManager): Promise<Resume | null> {
    const a = input.attention;
    const ha = input.humanAttention;
    if (!a && !ha) return null;
    let notice: AttentionNotice | null = null;
    if (a) {
      notice = await this.notifications.attentionNotice(actor, a.attentionItemId, m);
      if (!notice) throw new DomainError(404, 'RUNNER_ATTENTION_NOT_FOUND', 'Attention notification not found');
      if (await this.leases.noticeClaimed(actor.orgId, notice.id, m)) throw alreadyClaimed();
      checkNotice(notice, issueId, a.actionKind);
    }
    if (!ha) {
      const deliveryRouting =
        notice!.event_type === VERIFICATION_COMPLETED ? await this.leases.deliveryRouting(actor.orgId, issueId, actor.memberId, m) : undefined;
      const { verificationEventId } = checkNoticeRouting(notice!, {
        issueId,
        actionKind: a!.actionKind,
        runnerHostId: a!.runnerHostId,
        preservedThreadId: a!.preservedThreadId,
        installationHostId: runner.host_id,
        deliveryRouting,
      });
      return {
        kind: 'attention_resume',
        executionId: null,
        itemId: null,
        sourceLeaseId: null,
        notificationId: notice!.id,
        hostId: a!.runnerHostId,
        threadId: a!.preservedThreadId,
        verificationEventId,
      };
    }
    if (notice) checkHumanAttentionNotice(notice, ha.executionId, ha.itemId);
    const routing = a ? { hostId: a.runnerHostId, threadId: a.preservedThreadId } : input.routing;
    const source = await this.humanAttentionSource(actor, issueId, runner, ha, routing, m);
    if (!notice) {
      // the bare form links the item's unread answer notification when there is one (its terminal replay acknowledges it)
      const answer = await this.notifications.attentionNotice(actor, ha.itemId, m);
      if (answer && answer.acknowledged_at === null && answer.issue_id === issueId && answer.event_type === 'attention.resolved') {
        if (!(await this.leases.noticeClaimed(actor.orgId, answer.id, m))) notice = answer;
      }
    }
    return { kind: 'human_attention', ...source, notificationId: notice?.id ?? null, verificationEventId: null };
  }

  /**
   * The checks of a human-attention resume: the execution is this agent's on this issue (409
   * RUNNER_ATTENTION_SOURCE_MISMATCH), `waiting` (409 RUNNER_ATTENTION_EXECUTION_NOT_WAITING) at the
   * expected version (409 STALE_STATE_VERSION); the item is its request, resolved (409
   * RUNNER_ATTENTION_NOT_RESOLVED) at the expected version (409 STALE_ATTENTION_VERSION); the
   * execution's newest lease (the source lease) was held by this same runner installation (409
   * RUNNER_ATTENTION_INSTALLATION_MISMATCH), on the host it has now and the claim names (409
   * RUNNER_ATTENTION_HOST_MISMATCH), in the thread the claim preserves (409
   * RUNNER_ATTENTION_THREAD_MISMATCH; a source lease that never learned its thread takes the
   * claim's); no other resume lease of the item exists in a state other than `orphaned` (409
   * RUNNER_ATTENTION_ALREADY_CLAIMED).
   */
  private async humanAttentionSource(
    actor: Actor,
    issueId: string,
    runner: ClaimRunner,
    ha: NonNullable<ClaimInput['humanAttention']>,
    routing: { hostId: string | null; threadId: string | null },
    m: EntityManager,
  ): Promise<Pick<Resume, 'executionId' | 'itemId' | 'sourceLeaseId' | 'hostId' | 'threadId'>> {
    const mismatch = () => attentionErrors.sourceMismatch('The execution and attention item do not belong to this agent and issue');
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
    if (!source || source.runner_id !== runner.id) {
      throw Errors.conflict("The execution's last lease was held by another runner installation", 'RUNNER_ATTENTION_INSTALLATION_MISMATCH');
    }
    const hostId = source.runner_host_id ?? runner.host_id ?? routing.hostId;
    if ((source.runner_host_id !== null && source.runner_host_id !== runner.host_id) || (routing.hostId !== null && routing.hostId !== hostId)) {
      throw attentionErrors.hostMismatch("The source lease's host is not the runner's host now or the one the claim names");
    }
    if (source.thread_id !== null && source.thread_id !== routing.threadId) {
      throw attentionErrors.threadMismatch('The claim does not preserve the thread the source lease retained');
    }
    if (await this.leases.attentionClaimed(actor.orgId, item.id, m)) throw alreadyClaimed();
    return { executionId: ex.id, itemId: item.id, sourceLeaseId: source.id, hostId, threadId: source.thread_id ?? routing.threadId };
  }
}
