import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource, type EntityManager } from 'typeorm';
import { atLeast } from '../../../../common/access/access-policy.service';
import { DomainError, Errors } from '../../../../common/errors/domain-error';
import { AttentionResolvedEvent, DomainEvents, eventActorOf, IssueActivityEvent, snapshotOf } from '../../../../common/events/domain-events';
import { attentionEnvelope, lockItem } from '../../attention-writes';
import { AttentionRepository } from '../../attention.repository';
import { ExecutionAccess } from '../../execution-access.service';
import { executionConflict } from '../../execution-rules';
import { ExecutionWriter } from '../../execution-writer.service';
import { ExecutionsRepository } from '../../executions.repository';
import type { AttentionEnvelope } from '../../executions.response';
import { type Answer, IdempotentWrites } from '../../idempotent-writes.service';
import { ResolveAttentionCommand } from './resolve-attention.command';

/**
 * A human with edit access on the issue's current project answers an open request (agents: 403
 * `ATTENTION_HUMAN_REQUIRED`; view-only: 403; unreadable: 404). Version-fenced. The execution
 * leaves `needs_human` for `waiting`; the answer shows in the requester's `resolved_unread` until it
 * acknowledges or completes the fenced waiting → running move. The issue timeline records it; the
 * requester gets an `attention.resolved` notification and webhooks subscribed to it a delivery.
 */
@CommandHandler(ResolveAttentionCommand)
export class ResolveAttentionHandler implements ICommandHandler<ResolveAttentionCommand, Answer<AttentionEnvelope>> {
  constructor(
    private readonly db: DataSource,
    private readonly guard: ExecutionAccess,
    private readonly executions: ExecutionsRepository,
    private readonly attention: AttentionRepository,
    private readonly writer: ExecutionWriter,
    private readonly events: DomainEvents,
    private readonly idem: IdempotentWrites,
  ) {}

  async execute({ actor, itemId, dto }: ResolveAttentionCommand): Promise<Answer<AttentionEnvelope>> {
    const { item, level } = await this.guard.readItem(actor, itemId);
    if (!atLeast(level, 'edit')) throw Errors.forbidden("This needs edit access to the issue's project");
    if (!actor.isHuman) throw new DomainError(403, 'ATTENTION_HUMAN_REQUIRED', 'Attention requests are resolved by a human');
    const answer = dto.answer.trim();
    if (!answer) throw Errors.validation('answer must not be blank');
    const work = async (m: EntityManager): Promise<Answer<AttentionEnvelope>> => {
      await lockItem(this.attention, m, actor.orgId, item.id, 'open', dto.expected_version);
      if (!(await this.attention.resolve(actor.orgId, item.id, dto.expected_version, answer, actor.memberId, m))) {
        throw executionConflict('STALE_ATTENTION_VERSION', 'The attention item changed concurrently');
      }
      const moved = await this.writer.move(m, actor, item.execution_id, 'waiting', { via: 'attention' });
      await this.events.stage(
        m,
        new AttentionResolvedEvent(
          actor.orgId,
          item.id,
          item.execution_id,
          item.issue_id,
          item.project_id,
          item.requester_member_id,
          eventActorOf(actor),
          item.title,
          dto.expected_version + 1,
          moved.version,
        ),
        new IssueActivityEvent(actor.orgId, item.issue_id, item.project_id, actor.memberId, snapshotOf(actor), 'attention.resolved', {
          execution_id: item.execution_id,
          attention_item_id: item.id,
          requester_member_id: item.requester_member_id,
        }),
      );
      return { status: 200, body: await attentionEnvelope(this.attention, this.executions, m, actor.orgId, item.id) };
    };
    const body = { ...dto, answer };
    if (dto.idempotency_key) return this.idem.run(actor, `attention.resolve:${item.id}`, dto.idempotency_key, body, work);
    return this.db.transaction(work);
  }
}
