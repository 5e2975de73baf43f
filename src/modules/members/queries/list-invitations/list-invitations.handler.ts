import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { listResponse, parsePage } from '../../../../common/http/list';
import { INVITATION_STATUSES, type InvitationStatus } from '../../entities/invitation.entity';
import { toOrgInvitationResponse } from '../../invitation.mapper';
import { InvitationsRepository } from '../../invitations.repository';
import { ListInvitationsQuery } from './list-invitations.query';

/** `status`: one effective status (default `pending`) or `all`. */
function statusOf(query: Record<string, unknown>): InvitationStatus | null {
  const raw = query.status ?? 'pending';
  if (raw === 'all') return null;
  if (typeof raw !== 'string' || !INVITATION_STATUSES.includes(raw as InvitationStatus)) {
    throw Errors.validation(`status must be one of ${INVITATION_STATUSES.join(', ')} or all`);
  }
  return raw as InvitationStatus;
}

/** The organization's invitations, newest first (owners and admins). */
@QueryHandler(ListInvitationsQuery)
export class ListInvitationsHandler implements IQueryHandler<ListInvitationsQuery> {
  constructor(
    private readonly access: AccessPolicyService,
    private readonly invitations: InvitationsRepository,
  ) {}

  async execute({ actor, query }: ListInvitationsQuery): Promise<Record<string, unknown>> {
    this.access.assertOrgAdmin(actor);
    const page = parsePage(query);
    const status = statusOf(query);
    const rows = await this.invitations.listForOrg(actor.orgId, status, page);
    const total = rows[0]?.total ?? (page.offset > 0 ? await this.invitations.countForOrg(actor.orgId, status) : 0);
    return listResponse('invitations', rows.map(toOrgInvitationResponse), total, page);
  }
}
