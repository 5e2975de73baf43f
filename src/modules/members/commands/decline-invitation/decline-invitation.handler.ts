import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Errors } from '../../../../common/errors/domain-error';
import { toInviteeInvitationResponse } from '../../invitation.mapper';
import { assertPending, closePending } from '../../invitation-rules';
import { InvitationsRepository } from '../../invitations.repository';
import type { InviteeInvitationResponse } from '../../invitations.response';
import { DeclineInvitationCommand } from './decline-invitation.command';

/** The invitee declines a pending invitation (another account's invitation is 404; expired or closed: 409). */
@CommandHandler(DeclineInvitationCommand)
export class DeclineInvitationHandler implements ICommandHandler<DeclineInvitationCommand, InviteeInvitationResponse> {
  constructor(private readonly invitations: InvitationsRepository) {}

  async execute({ invitee, invitationId }: DeclineInvitationCommand): Promise<InviteeInvitationResponse> {
    const inv = await this.invitations.findForInvitee(invitationId, invitee.email);
    if (!inv) throw Errors.notFound('Invitation not found');
    await assertPending(this.invitations, inv);
    await closePending(this.invitations, inv, 'declined', null);
    return toInviteeInvitationResponse((await this.invitations.findForInvitee(inv.id, invitee.email))!);
  }
}
