import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { PlanService } from '../../../../common/plan/plan.service';
import { RateLimitService, type RateLimitRule } from '../../../../common/rate-limit/rate-limit.service';
import { APP_CONFIG, type AppConfig } from '../../../../config/config';
import { TxRunner } from '../../../../database/tx-runner';
import { toInvitationResponse } from '../../invitation.mapper';
import { alreadyMember, INVITATION_TTL_DAYS, invitationPending, invitationRateRule, isPendingInvitationViolation } from '../../invitation-rules';
import { InvitationsRepository } from '../../invitations.repository';
import type { InvitationResponse } from '../../invitations.response';
import { MembersRepository } from '../../members.repository';
import { CreateInvitationCommand } from './create-invitation.command';

/**
 * `POST /members` (owners and admins): a pending invitation for an email address. The same
 * statements run and the same answer comes back whether or not an account has the email, so the
 * route tells nothing about who is registered. Refused: a live member's email (409
 * `already_member`), a second pending invitation for the email (409 `invitation_pending`), the
 * plan's human limit, which counts pending invitations (402), too many invitations per hour (429).
 */
@CommandHandler(CreateInvitationCommand)
export class CreateInvitationHandler implements ICommandHandler<CreateInvitationCommand, InvitationResponse> {
  private readonly rule: RateLimitRule;

  constructor(
    private readonly tx: TxRunner,
    private readonly access: AccessPolicyService,
    private readonly plans: PlanService,
    private readonly rateLimit: RateLimitService,
    private readonly invitations: InvitationsRepository,
    private readonly members: MembersRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.rule = invitationRateRule(config.invitationRateLimitPerHour);
  }

  async execute({ actor, email, role }: CreateInvitationCommand): Promise<InvitationResponse> {
    this.access.assertOrgAdmin(actor);
    await this.rateLimit.consume(this.rule, actor.orgId);
    try {
      return await this.tx.run(async (m) => {
        // member changes of this organization run one at a time (an acceptance cannot slip between the checks below)
        await this.members.lockOrganization(actor.orgId, m);
        if (await this.invitations.memberHasEmail(actor.orgId, email, m)) throw alreadyMember();
        await this.invitations.expireLapsed(actor.orgId, email, m);
        if (await this.invitations.findPending(actor.orgId, email, m)) throw invitationPending();
        await this.plans.assertCanAdd(m, actor.orgId, 'humans');
        const row = await this.invitations.insert(
          { orgId: actor.orgId, id: randomUUID(), email, role, invitedByMemberId: actor.memberId, ttlDays: INVITATION_TTL_DAYS },
          m,
        );
        return toInvitationResponse(row);
      });
    } catch (e) {
      if (isPendingInvitationViolation(e)) throw invitationPending();
      throw e;
    }
  }
}
