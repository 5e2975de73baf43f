import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Errors } from '../../../../common/errors/domain-error';
import { PlanService } from '../../../../common/plan/plan.service';
import { TxRunner } from '../../../../database/tx-runner';
import { toInviteeInvitationResponse } from '../../invitation.mapper';
import { alreadyMember, assertPending, closePending } from '../../invitation-rules';
import { InvitationsRepository } from '../../invitations.repository';
import type { AcceptedInvitationResponse } from '../../invitations.response';
import { toMemberResponse } from '../../member.mapper';
import { MembersRepository } from '../../members.repository';
import { AcceptInvitationCommand } from './accept-invitation.command';

/**
 * The invitee (the signed-in account whose email the invitation names) accepts: the membership is
 * created with the invited role (a removed member comes back on the same record). Another
 * account's invitation is 404; expired, closed, already a member: 409; over the plan: 402.
 */
@CommandHandler(AcceptInvitationCommand)
export class AcceptInvitationHandler implements ICommandHandler<AcceptInvitationCommand, AcceptedInvitationResponse> {
  constructor(
    private readonly tx: TxRunner,
    private readonly plans: PlanService,
    private readonly invitations: InvitationsRepository,
    private readonly members: MembersRepository,
  ) {}

  async execute({ invitee, invitationId }: AcceptInvitationCommand): Promise<AcceptedInvitationResponse> {
    const inv = await this.invitations.findForInvitee(invitationId, invitee.email);
    if (!inv) throw Errors.notFound('Invitation not found');
    await assertPending(this.invitations, inv);
    return this.tx.run(async (m) => {
      await this.members.lockOrganization(inv.org_id, m); // serializes member changes of this organization
      // The pending invitation already holds its seat in the usage: adding 0 checks the organization is still within its limit
      // (it may not be after a plan change).
      await this.plans.assertCanAdd(m, inv.org_id, 'humans', 0);
      const existing = await this.members.findByUser(inv.org_id, invitee.userId, m);
      if (existing && !existing.removedAt) throw alreadyMember();
      const memberId = existing?.id ?? randomUUID();
      await closePending(this.invitations, inv, 'accepted', memberId, m);
      const now = new Date();
      if (existing) await this.members.reinstate(inv.org_id, memberId, inv.role, now, m);
      else {
        await this.members.insertHuman(
          {
            orgId: inv.org_id,
            id: memberId,
            userId: invitee.userId,
            role: inv.role,
            displayName: invitee.displayName,
            createdByMemberId: inv.invited_by_member_id,
            now,
          },
          m,
        );
      }
      const accepted = (await this.invitations.findForInvitee(inv.id, invitee.email, m))!;
      return { invitation: toInviteeInvitationResponse(accepted), member: toMemberResponse((await this.members.view(inv.org_id, memberId, m))!, true) };
    });
  }
}
