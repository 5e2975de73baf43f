import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { assertPending, closePending } from '../../invitation-rules';
import { InvitationsRepository } from '../../invitations.repository';
import { RevokeInvitationCommand } from './revoke-invitation.command';

/** Owners and admins withdraw a pending invitation (it frees its seat at once); expired or closed ones: 409. */
@CommandHandler(RevokeInvitationCommand)
export class RevokeInvitationHandler implements ICommandHandler<RevokeInvitationCommand, void> {
  constructor(
    private readonly access: AccessPolicyService,
    private readonly invitations: InvitationsRepository,
  ) {}

  async execute({ actor, invitationId }: RevokeInvitationCommand): Promise<void> {
    this.access.assertOrgAdmin(actor);
    const inv = await this.invitations.findById(actor.orgId, invitationId);
    if (!inv) throw Errors.notFound('Invitation not found');
    await assertPending(this.invitations, inv);
    await closePending(this.invitations, inv, 'revoked', null);
  }
}
