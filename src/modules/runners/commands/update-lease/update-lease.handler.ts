import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { DomainError, Errors } from '../../../../common/errors/domain-error';
import { isUuid } from '../../../../common/http/validation';
import { AttentionRepository } from '../../../executions/attention.repository';
import { requestHash } from '../../../executions/execution-rules';
import { ExecutionWriter } from '../../../executions/execution-writer.service';
import { syncExecution } from '../../lease-executions';
import { type LeaseChange, LeasesRepository } from '../../leases.repository';
import { parseLeaseWrite, tokenHash } from '../../runner-rules';
import { storedLeaseResponse, toLease } from '../../runners.mapper';
import type { LeaseEnvelope } from '../../runners.response';
import { UpdateLeaseCommand } from './update-lease.command';

const PHASE_ORDER = ['pre_intent', 'intent_persisted', 'started', 'model_completed'];
const later = (cur: string, next: string): string => (PHASE_ORDER.indexOf(next) > PHASE_ORDER.indexOf(cur) ? next : cur);
const fenced = (code: string, message: string, status = 409) => new DomainError(status, code, message);

/**
 * A fenced lease write. Fences, each with its own code: another agent's or unknown lease 404; the
 * runner must be the agent's current, connected installation (409 RUNNER_LEASE_RUNNER_FENCED;
 * paused intake is fine); `claimGeneration` (409 RUNNER_LEASE_GENERATION_MISMATCH); the token
 * (403 RUNNER_LEASE_TOKEN_INVALID; a live recovery token is promoted); the lease open and unexpired
 * (409 RUNNER_LEASE_CLOSED / RUNNER_LEASE_EXPIRED); `sequence` = current + 1 (409
 * RUNNER_LEASE_SEQUENCE_MISMATCH); a `threadId` other than the lease's thread (409
 * RUNNER_LEASE_THREAD_MISMATCH, or RUNNER_LEASE_VERIFICATION_BINDING_MISMATCH for a verified resume
 * bound to another run; a lease without a thread learns it). The update itself is conditional on all of them, so a
 * concurrent write loses with 409. The same `mutationId` and body answer the stored result.
 */
@CommandHandler(UpdateLeaseCommand)
export class UpdateLeaseHandler implements ICommandHandler<UpdateLeaseCommand, LeaseEnvelope> {
  constructor(
    private readonly db: DataSource,
    private readonly leases: LeasesRepository,
    private readonly writer: ExecutionWriter,
    private readonly attention: AttentionRepository,
  ) {}

  async execute({ actor, leaseId, body }: UpdateLeaseCommand): Promise<LeaseEnvelope> {
    if (!isUuid(leaseId)) throw Errors.notFound('Lease not found');
    const w = parseLeaseWrite(body);
    // a write without threadId hashes as before threadId existed (stored exact retries stay valid)
    const { threadId, ...unthreaded } = w;
    const hash = requestHash(threadId === null ? unthreaded : w);
    const sent = tokenHash(w.token);
    if (w.transition === 'renew') {
      // the common write: one statement under every fence; a fence that did not hold takes the path below for its answer
      const written = await this.leases.renew(actor.orgId, leaseId.toLowerCase(), actor.memberId, {
        generation: w.claimGeneration,
        tokenHash: sent,
        sequence: w.sequence,
        mutationId: w.mutationId,
        requestHash: hash,
      });
      if (written) return { lease: toLease(written) };
    }
    return this.db.transaction(async (m) => {
      const lease = await this.leases.lockOwn(actor.orgId, leaseId.toLowerCase(), actor.memberId, w.mutationId, m);
      if (!lease) throw Errors.notFound('Lease not found');
      // the lease's installation is the agent's current one exactly when it is neither replaced nor
      // disconnected (one current installation per agent), and connected when refreshed in time
      if (!lease.runner_live) throw fenced('RUNNER_LEASE_RUNNER_FENCED', 'Only the connected runner installation that holds the lease can write it');
      const prior = lease.prior;
      if (prior) {
        if (prior.request_hash !== hash) throw fenced('RUNNER_LEASE_MUTATION_REUSED', 'This mutationId was already used with another body');
        return storedLeaseResponse(prior.response);
      }
      if (w.claimGeneration !== lease.claim_generation) throw fenced('RUNNER_LEASE_GENERATION_MISMATCH', 'claimGeneration does not match the lease');
      if (sent !== lease.token_hash) {
        if (!(await this.leases.isRecoveryToken(actor.orgId, lease.id, sent, m)))
          throw fenced('RUNNER_LEASE_TOKEN_INVALID', 'The lease token is not valid', 403);
        await this.leases.promote(actor.orgId, lease.id, sent, m);
      }
      const fromStates = w.transition === 'acknowledge' ? ['uncertain'] : ['active'];
      if (!fromStates.includes(lease.state)) {
        throw fenced(w.transition === 'acknowledge' ? 'RUNNER_LEASE_NOT_UNCERTAIN' : 'RUNNER_LEASE_CLOSED', `The lease is ${lease.state}`);
      }
      if (lease.state === 'active' && lease.expired) throw fenced('RUNNER_LEASE_EXPIRED', 'The lease expired; claim again');
      if (w.sequence !== lease.sequence + 1) {
        throw new DomainError(409, 'RUNNER_LEASE_SEQUENCE_MISMATCH', `sequence must be ${lease.sequence + 1}`, { expected_sequence: lease.sequence + 1 });
      }
      if (threadId !== null && lease.thread_id !== null && threadId !== lease.thread_id) {
        throw lease.verification_event_id !== null
          ? fenced('RUNNER_LEASE_VERIFICATION_BINDING_MISMATCH', 'The lease resumes a verification bound to another thread')
          : fenced('RUNNER_LEASE_THREAD_MISMATCH', 'The lease works in another thread');
      }
      const c: LeaseChange = {
        state: lease.state,
        phase: lease.phase,
        progress: w.progress,
        errorCode: w.errorCode,
        renew: lease.state === 'active',
        threadId,
      };
      switch (w.transition) {
        case 'turn_intent_persisted':
          c.phase = later(lease.phase, 'intent_persisted');
          break;
        case 'started':
          c.phase = later(lease.phase, 'started');
          break;
        case 'model_completed':
          c.phase = later(lease.phase, 'model_completed');
          break;
        case 'progress':
          if (w.progress === 'turn_intent_persisted') c.phase = later(lease.phase, 'intent_persisted');
          if (w.progress === 'model_completed') c.phase = later(lease.phase, 'model_completed');
          break;
        case 'completed':
        case 'failed':
        case 'aborted':
          c.state = w.transition;
          c.renew = false;
          break;
        case 'orphaned':
          if (lease.phase !== 'pre_intent') throw fenced('RUNNER_LEASE_NOT_PRE_INTENT', 'Only a lease without a persisted turn intent can be orphaned');
          c.state = 'orphaned';
          c.renew = false;
          break;
        case 'uncertain_outcome':
          c.state = 'uncertain';
          c.renew = false;
          break;
        case 'acknowledge':
          c.state = 'acknowledged';
          c.renew = false;
          break;
        default:
          break;
      }
      const written = await this.leases.apply(
        actor.orgId,
        lease.id,
        { runnerId: lease.runner_id, generation: w.claimGeneration, tokenHash: sent, sequence: w.sequence, fromStates },
        c,
        { mutationId: w.mutationId, transition: w.transition, requestHash: hash },
        m,
      );
      if (!written) throw new DomainError(409, 'RUNNER_LEASE_SEQUENCE_MISMATCH', 'The lease changed concurrently; reread and retry');
      const target = { started: 'running', completed: 'completed', failed: 'failed', aborted: 'cancelled', orphaned: 'cancelled' } as const;
      if (w.transition in target) {
        await syncExecution(m, this.writer, actor, lease.execution_id, target[w.transition as keyof typeof target]);
      }
      // a human-attention resume that starts has received the answer: the receipt leaves resolved_unread
      if (w.transition === 'started' && lease.claim_kind === 'human_attention' && lease.execution_id) {
        await this.attention.consumeReceipts(actor.orgId, lease.execution_id, actor.memberId, m);
      }
      return { lease: toLease(written) };
    });
  }
}
