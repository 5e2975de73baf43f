import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { PlanService } from '../../../../common/plan/plan.service';
import { MemberEntity } from '../../entities/member.entity';
import { MEMBER_COLUMNS, toMemberResponse } from '../../member.mapper';
import type { MemberResponse } from '../../members.response';
import { AddMemberCommand } from './add-member.command';

/** Adds an existing account as a human member (a removed member comes back with the new role). */
@CommandHandler(AddMemberCommand)
export class AddMemberHandler implements ICommandHandler<AddMemberCommand, MemberResponse> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
    private readonly plans: PlanService,
  ) {}

  async execute({ actor, email, role }: AddMemberCommand): Promise<MemberResponse> {
    this.access.assertOrgAdmin(actor);
    if (role === 'owner') this.access.assertOrgOwner(actor, 'Only owners can add owners');
    return this.db.transaction(async (m) => {
      await this.plans.assertCanAdd(m, actor.orgId, 'humans'); // also serializes member changes of this organization
      const users: Array<{ id: string; display_name: string }> = await m.query('SELECT id, display_name FROM users WHERE lower(email) = lower($1)', [email]);
      const user = users[0];
      if (!user) throw Errors.notFound('No account with this email; ask them to sign up first');
      const existing = await m.findOneBy(MemberEntity, { orgId: actor.orgId, userId: user.id });
      const now = new Date();
      let id: string;
      if (existing && !existing.removedAt) throw Errors.conflict('This account is already a member', 'already_member');
      if (existing) {
        id = existing.id;
        await m.update(MemberEntity, { orgId: actor.orgId, id }, { role, removedAt: null, updatedAt: now });
      } else {
        id = randomUUID();
        await m.insert(MemberEntity, { orgId: actor.orgId, id, type: 'human', userId: user.id, role, displayName: user.display_name, createdByMemberId: actor.memberId, createdAt: now, updatedAt: now });
      }
      const rows = await m.query(`SELECT ${MEMBER_COLUMNS} FROM members m LEFT JOIN users u ON u.id = m.user_id WHERE m.org_id = $1 AND m.id = $2`, [actor.orgId, id]);
      return toMemberResponse(rows[0], true);
    });
  }
}
