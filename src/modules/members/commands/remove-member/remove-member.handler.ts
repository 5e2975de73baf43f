import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { MemberEntity } from '../../entities/member.entity';
import { assertNotLastOwner, lockAndLoadMember } from '../../member-rules';
import { RemoveMemberCommand } from './remove-member.command';

/**
 * Removes a member (owners/admins; anyone may leave). The record stays for history with
 * `removed_at`; project and team access and agent keys go at once.
 */
@CommandHandler(RemoveMemberCommand)
export class RemoveMemberHandler implements ICommandHandler<RemoveMemberCommand, void> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, memberId }: RemoveMemberCommand): Promise<void> {
    await this.db.transaction(async (m) => {
      const target = await lockAndLoadMember(m, actor, memberId);
      if (target.id !== actor.memberId) {
        this.access.assertOrgAdmin(actor, 'Only owners and admins can remove members');
        if (target.role === 'owner') this.access.assertOrgOwner(actor, 'Only owners can remove an owner');
      }
      await assertNotLastOwner(m, actor.orgId, target);
      const now = new Date();
      await m.update(MemberEntity, { orgId: actor.orgId, id: target.id }, { removedAt: now, updatedAt: now });
      await m.query('DELETE FROM project_members WHERE org_id = $1 AND member_id = $2', [actor.orgId, target.id]);
      await m.query('DELETE FROM team_members WHERE org_id = $1 AND member_id = $2', [actor.orgId, target.id]);
      await m.query('UPDATE api_keys SET revoked_at = now() WHERE org_id = $1 AND member_id = $2 AND revoked_at IS NULL', [actor.orgId, target.id]);
    });
  }
}
