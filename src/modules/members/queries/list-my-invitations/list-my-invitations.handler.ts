import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { listResponse } from '../../../../common/http/list';
import { toInviteeInvitationResponse } from '../../invitation.mapper';
import { InvitationsRepository } from '../../invitations.repository';
import { ListMyInvitationsQuery } from './list-my-invitations.query';

/** The signed-in account's pending, unexpired invitations (matched by its email), newest first, each with its organization. */
@QueryHandler(ListMyInvitationsQuery)
export class ListMyInvitationsHandler implements IQueryHandler<ListMyInvitationsQuery> {
  constructor(private readonly invitations: InvitationsRepository) {}

  async execute({ invitee, page }: ListMyInvitationsQuery): Promise<Record<string, unknown>> {
    const rows = await this.invitations.listForInvitee(invitee.email, page);
    const total = rows[0]?.total ?? (page.offset > 0 ? await this.invitations.countForInvitee(invitee.email) : 0);
    return listResponse('invitations', rows.map(toInviteeInvitationResponse), total, page);
  }
}
