import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { DomainEvents, MemberAccessChangedEvent } from '../../../../common/events/domain-events';
import type { OrgRole } from '../../entities/member.entity';
import { assertNotLastOwner, lockAndLoadMember } from '../../member-rules';
import { toMemberResponse } from '../../member.mapper';
import { MembersRepository } from '../../members.repository';
import type { MemberResponse } from '../../members.response';
import { UpdateMemberCommand } from './update-member.command';
import { TxRunner } from '../../../../database/tx-runner';

/**
 * Role and display-name changes; they apply on the member's next request. A role change is staged
 * as a `MemberAccessChangedEvent` in the same transaction: the agents module re-evaluates the
 * member's agents and the keys the member minted before it commits.
 */
@CommandHandler(UpdateMemberCommand)
export class UpdateMemberHandler implements ICommandHandler<UpdateMemberCommand, MemberResponse> {
  constructor(
    private readonly tx: TxRunner,
    private readonly access: AccessPolicyService,
    private readonly members: MembersRepository,
    private readonly events: DomainEvents,
  ) {}

  async execute({ actor, memberId, changes }: UpdateMemberCommand): Promise<MemberResponse> {
    return this.tx.run(async (m) => {
      const target = await lockAndLoadMember(this.members, m, actor, memberId);
      const self = target.id === actor.memberId;
      const patch: { displayName?: string; role?: OrgRole; updatedAt: Date } = { updatedAt: new Date() };
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
        await assertNotLastOwner(this.members, m, actor.orgId, target);
        patch.role = changes.role;
      }
      await this.members.update(actor.orgId, target.id, patch, m);
      if (patch.role) {
        await this.events.stage(m, new MemberAccessChangedEvent(actor.orgId, target.id, target.type, target.displayName, target.role, patch.role));
      }
      return toMemberResponse((await this.members.view(actor.orgId, target.id, m))!, actor.isOwnerOrAdmin || self);
    });
  }
}
