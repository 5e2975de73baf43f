import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { DomainEvents, MemberAccessChangedEvent } from '../../../../common/events/domain-events';
import { assertNotLastOwner, lockAndLoadMember } from '../../member-rules';
import { MembersRepository } from '../../members.repository';
import { RemoveMemberCommand } from './remove-member.command';
import { TxRunner } from '../../../../database/tx-runner';

/**
 * Removes a member (owners/admins; anyone may leave). The record stays for history with
 * `removed_at`; project and team access and agent keys go at once. The removal is staged as a
 * `MemberAccessChangedEvent` in the same transaction: the agents module revokes the member's
 * personal agents and every key the member minted before it commits.
 */
@CommandHandler(RemoveMemberCommand)
export class RemoveMemberHandler implements ICommandHandler<RemoveMemberCommand, void> {
  constructor(
    private readonly tx: TxRunner,
    private readonly access: AccessPolicyService,
    private readonly members: MembersRepository,
    private readonly events: DomainEvents,
  ) {}

  async execute({ actor, memberId }: RemoveMemberCommand): Promise<void> {
    await this.tx.run(async (m) => {
      const target = await lockAndLoadMember(this.members, m, actor, memberId);
      if (target.id !== actor.memberId) {
        this.access.assertOrgAdmin(actor, 'Only owners and admins can remove members');
        if (target.role === 'owner') this.access.assertOrgOwner(actor, 'Only owners can remove an owner');
      }
      await assertNotLastOwner(this.members, m, actor.orgId, target);
      await this.members.remove(actor.orgId, target.id, new Date(), m);
      await this.events.stage(m, new MemberAccessChangedEvent(actor.orgId, target.id, target.type, target.displayName, target.role, null));
    });
  }
}
