import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { TxRunner } from '../../../../database/tx-runner';
import { InboxAccess } from '../../inbox-access';
import { toEmail } from '../../inbox.mapper';
import { type EmailChanges, InboxRepository } from '../../inbox.repository';
import type { InboxEmailEnvelope } from '../../inbox.response';
import { UpdateEmailCommand } from './update-email.command';

/**
 * Operators triage, classify, prioritize, resolve, note or link a message. Every effective change
 * appends one audit action (with its `from` and `to`); a note is an action of its own. The message
 * row is locked for the change, so concurrent edits serialize and each action records what it saw.
 */
@CommandHandler(UpdateEmailCommand)
export class UpdateEmailHandler implements ICommandHandler<UpdateEmailCommand, InboxEmailEnvelope> {
  constructor(
    private readonly tx: TxRunner,
    private readonly inbox: InboxAccess,
    private readonly access: AccessPolicyService,
    private readonly repo: InboxRepository,
  ) {}

  async execute({ actor, emailId, dto }: UpdateEmailCommand): Promise<InboxEmailEnvelope> {
    this.inbox.assertOperator(actor);
    const fields = ['status', 'category', 'priority', 'note', 'linked_issue_id'] as const;
    if (!fields.some((f) => dto[f] !== undefined)) throw Errors.validation(`Give at least one of ${fields.join(', ')}`);
    if (dto.linked_issue_id) await this.access.assertIssueRead(actor, dto.linked_issue_id);
    return this.tx.run(async (m) => {
      const current = await this.repo.email(actor.orgId, emailId, m, true);
      if (!current) throw Errors.notFound('Email not found');
      const changes: EmailChanges = {};
      const actions: [string, Record<string, unknown>][] = [];
      if (dto.status !== undefined && dto.status !== current.status) {
        changes.status = dto.status;
        actions.push(['status_changed', { from: current.status, to: dto.status }]);
      }
      if (dto.category !== undefined && dto.category !== current.category) {
        changes.category = dto.category;
        actions.push(['category_changed', { from: current.category, to: dto.category }]);
      }
      if (dto.priority !== undefined && dto.priority !== current.priority) {
        changes.priority = dto.priority;
        actions.push(['priority_changed', { from: current.priority, to: dto.priority }]);
      }
      if (dto.linked_issue_id !== undefined && dto.linked_issue_id !== current.linked_issue_id) {
        changes.linkedIssueId = dto.linked_issue_id;
        actions.push(
          dto.linked_issue_id === null ? ['issue_unlinked', { issue_id: current.linked_issue_id }] : ['issue_linked', { issue_id: dto.linked_issue_id }],
        );
      }
      if (dto.note !== undefined) actions.push(['note_added', { note: dto.note }]);
      if (Object.keys(changes).length) await this.repo.update(actor.orgId, emailId, changes, m);
      for (const [action, detail] of actions) await this.repo.insertAction(actor.orgId, randomUUID(), emailId, action, actor.memberId, detail, m);
      const row = (await this.repo.email(actor.orgId, emailId, m))!;
      const [attachments, history] = [await this.repo.attachments(actor.orgId, emailId, m), await this.repo.actions(actor.orgId, emailId, m)];
      return { email: toEmail(row, attachments, history) };
    });
  }
}
