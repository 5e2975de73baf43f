import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { MemberEntity } from '../../entities/member.entity';
import { assertNotLastOwner, lockAndLoadMember } from '../../member-rules';
import { MEMBER_COLUMNS, toMemberResponse } from '../../member.mapper';
import type { MemberResponse } from '../../members.response';
import { UpdateMemberCommand } from './update-member.command';

/** Role and display-name changes; they apply on the member's next request. */
@CommandHandler(UpdateMemberCommand)
export class UpdateMemberHandler implements ICommandHandler<UpdateMemberCommand, MemberResponse> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, memberId, changes }: UpdateMemberCommand): Promise<MemberResponse> {
    return this.db.transaction(async (m) => {
      const target = await lockAndLoadMember(m, actor, memberId);
      const self = target.id === actor.memberId;
      const patch: Partial<MemberEntity> = { updatedAt: new Date() };
      if (changes.displayName !== undefined) {
        if (!self) this.access.assertOrgAdmin(actor, 'Only owners and admins can rename other members');
        patch.displayName = changes.displayName;
      }
      if (changes.role !== undefined && changes.role !== target.role) {
        this.access.assertOrgAdmin(actor, 'Only owners and admins can change roles');
        if (changes.role === 'owner' || target.role === 'owner') this.access.assertOrgOwner(actor, 'Only owners can grant or remove the owner role');
        if (target.type === 'agent') {
          if (changes.role === 'owner') throw Errors.validation('An agent cannot be an owner');
          if (target.agentScope === 'project' && changes.role !== 'guest') throw Errors.validation('A project-scoped agent stays an organization guest');
          if (target.agentScope === 'personal') throw Errors.validation('A personal agent inherits its owner’s access; its role cannot change');
        }
        await assertNotLastOwner(m, actor.orgId, target);
        patch.role = changes.role;
      }
      await m.update(MemberEntity, { orgId: actor.orgId, id: target.id }, patch);
      const rows = await m.query(`SELECT ${MEMBER_COLUMNS} FROM members m LEFT JOIN users u ON u.id = m.user_id WHERE m.org_id = $1 AND m.id = $2`, [actor.orgId, target.id]);
      return toMemberResponse(rows[0], actor.isOwnerOrAdmin || self);
    });
  }
}
