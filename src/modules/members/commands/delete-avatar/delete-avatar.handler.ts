import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { TxRunner } from '../../../../database/tx-runner';
import { avatarTarget, type AvatarOutcome } from '../../avatar-access';
import { AvatarCleanupSweeper } from '../../avatar-cleanup.sweeper';
import { AVATAR_CONFLICT } from '../../avatars.constants';
import { AvatarsRepository } from '../../avatars.repository';
import type { AvatarDeleted } from '../../avatars.response';
import { DeleteAvatarCommand } from './delete-avatar.command';

/**
 * Removes a member's avatar (same access as the upload): the pointer is cleared by compare-and-set
 * against the value just read (409 when it changed meanwhile) and its object queued in the same
 * transaction, then removed at once when possible (200), else by the worker (202
 * `cleanup_pending: true`). A member without an avatar: 200, nothing changes.
 */
@CommandHandler(DeleteAvatarCommand)
export class DeleteAvatarHandler implements ICommandHandler<DeleteAvatarCommand, AvatarOutcome<AvatarDeleted>> {
  constructor(
    private readonly avatars: AvatarsRepository,
    private readonly access: AccessPolicyService,
    private readonly sweeper: AvatarCleanupSweeper,
    private readonly tx: TxRunner,
  ) {}

  async execute({ actor, memberId }: DeleteAvatarCommand): Promise<AvatarOutcome<AvatarDeleted>> {
    const target = await avatarTarget(this.avatars, this.access, actor, memberId);
    const expected = target.avatar_storage_key;
    if (!expected && !target.avatar_url) return { status: 200, body: { success: true } };
    const outcome = await this.tx.run(async (m) => {
      if (!(await this.avatars.swap(actor.orgId, target.id, expected, null, m))) return 'changed' as const;
      return expected ? this.avatars.queueCleanup(actor.orgId, expected, 'retired', 0, m) : null;
    });
    if (outcome === 'changed') return { status: 409, body: { error: AVATAR_CONFLICT } };
    if (outcome && !(await this.sweeper.cleanNow(actor.orgId, [outcome]))) return { status: 202, body: { success: true, cleanup_pending: true } };
    return { status: 200, body: { success: true } };
  }
}
