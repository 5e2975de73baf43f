import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { PlanService } from '../../../../common/plan/plan.service';
import { UsersRepository } from '../../../accounts/accounts.repository';
import { toMemberResponse } from '../../member.mapper';
import { MembersRepository } from '../../members.repository';
import type { MemberResponse } from '../../members.response';
import { AddMemberCommand } from './add-member.command';

/** Adds an existing account as a human member (a removed member comes back with the new role). */
@CommandHandler(AddMemberCommand)
export class AddMemberHandler implements ICommandHandler<AddMemberCommand, MemberResponse> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
    private readonly plans: PlanService,
    private readonly members: MembersRepository,
    private readonly users: UsersRepository,
  ) {}

  async execute({ actor, email, role }: AddMemberCommand): Promise<MemberResponse> {
    this.access.assertOrgAdmin(actor);
    if (role === 'owner') this.access.assertOrgOwner(actor, 'Only owners can add owners');
    return this.db.transaction(async (m) => {
      await this.plans.assertCanAdd(m, actor.orgId, 'humans'); // also serializes member changes of this organization
      const user = await this.users.findIdentityByEmail(email, m);
      if (!user) throw Errors.notFound('No account with this email; ask them to sign up first');
      const existing = await this.members.findByUser(actor.orgId, user.id, m);
      const now = new Date();
      let id: string;
      if (existing && !existing.removedAt) throw Errors.conflict('This account is already a member', 'already_member');
      if (existing) {
        id = existing.id;
        await this.members.reinstate(actor.orgId, id, role, now, m);
      } else {
        id = randomUUID();
        await this.members.insertHuman(
          { orgId: actor.orgId, id, userId: user.id, role, displayName: user.display_name, createdByMemberId: actor.memberId, now },
          m,
        );
      }
      return toMemberResponse((await this.members.view(actor.orgId, id, m))!, true);
    });
  }
}
