import type { AccessPolicyService } from '../../common/access/access-policy.service';
import type { Actor } from '../../common/auth/principal';
import { Errors } from '../../common/errors/domain-error';
import type { AvatarPointer, AvatarsRepository } from './avatars.repository';

/**
 * The avatar pointer of member `memberId` if the caller may change it: members manage their own
 * avatar; owners and admins any member's of their organization (403 for others). A member that is
 * not a live member of the path organization is 404, whoever asks.
 */
export async function avatarTarget(avatars: AvatarsRepository, access: AccessPolicyService, actor: Actor, memberId: string): Promise<AvatarPointer> {
  const target = await avatars.pointer(actor.orgId, memberId);
  if (!target) throw Errors.notFound('Member not found');
  if (target.id !== actor.memberId) access.assertOrgAdmin(actor, 'Only owners and admins can change another member’s avatar');
  return target;
}

/** What an avatar command answers: the status and the exact body. */
export interface AvatarOutcome<T> {
  status: 200 | 202 | 409;
  body: T | { error: string; cleanup_pending?: true };
}
