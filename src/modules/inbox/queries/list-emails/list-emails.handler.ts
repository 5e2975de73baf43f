import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Errors } from '../../../../common/errors/domain-error';
import { listResponse, parsePage } from '../../../../common/http/list';
import { InboxAccess } from '../../inbox-access';
import { INBOX_STATUSES, type InboxStatus } from '../../inbox.constants';
import { toSummary } from '../../inbox.mapper';
import { InboxRepository } from '../../inbox.repository';
import { ListEmailsQuery } from './list-emails.query';

/** Operators list the messages of one status (`?status=`, default `untriaged`), newest first, without bodies. */
@QueryHandler(ListEmailsQuery)
export class ListEmailsHandler implements IQueryHandler<ListEmailsQuery, Record<string, unknown>> {
  constructor(
    private readonly inbox: InboxAccess,
    private readonly repo: InboxRepository,
  ) {}

  async execute({ actor, query }: ListEmailsQuery): Promise<Record<string, unknown>> {
    this.inbox.assertOperator(actor);
    const page = parsePage(query);
    const raw = query.status ?? 'untriaged';
    if (typeof raw !== 'string' || !(INBOX_STATUSES as readonly string[]).includes(raw)) {
      throw Errors.validation(`status must be one of ${INBOX_STATUSES.join(', ')}`);
    }
    const { rows, total } = await this.repo.list(actor.orgId, raw as InboxStatus, page.limit, page.offset);
    return listResponse('emails', rows.map(toSummary), total, page);
  }
}
