import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Errors } from '../../../../common/errors/domain-error';
import { InboxAccess } from '../../inbox-access';
import { toEmail } from '../../inbox.mapper';
import { InboxRepository } from '../../inbox.repository';
import type { InboxEmailEnvelope } from '../../inbox.response';
import { GetEmailQuery } from './get-email.query';

/** Operators read one message: untrusted content, attachment metadata and the audit actions. */
@QueryHandler(GetEmailQuery)
export class GetEmailHandler implements IQueryHandler<GetEmailQuery, InboxEmailEnvelope> {
  constructor(
    private readonly inbox: InboxAccess,
    private readonly repo: InboxRepository,
  ) {}

  async execute({ actor, emailId }: GetEmailQuery): Promise<InboxEmailEnvelope> {
    this.inbox.assertOperator(actor);
    const row = await this.repo.email(actor.orgId, emailId);
    if (!row) throw Errors.notFound('Email not found');
    const [attachments, actions] = await Promise.all([this.repo.attachments(actor.orgId, emailId), this.repo.actions(actor.orgId, emailId)]);
    return { email: toEmail(row, attachments, actions) };
  }
}
