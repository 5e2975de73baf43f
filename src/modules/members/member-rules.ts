import type { Tx } from '../../database/sql.service';
import type { Actor } from '../../common/auth/principal';
import { Errors } from '../../common/errors/domain-error';
import type { MemberEntity } from './entities/member.entity';
import type { MembersRepository } from './members.repository';

/**
 * Loads the target member inside a transaction after locking the organization row, so role
 * changes and removals of one organization run one at a time (the last-owner rule cannot race).
 */
export async function lockAndLoadMember(members: MembersRepository, m: Tx, actor: Actor, memberId: string): Promise<MemberEntity> {
  await members.lockOrganization(actor.orgId, m);
  const target = await members.findById(actor.orgId, memberId, m);
  if (!target || target.removedAt) throw Errors.notFound('Member not found');
  return target;
}

export async function assertNotLastOwner(members: MembersRepository, m: Tx, orgId: string, target: MemberEntity): Promise<void> {
  if (target.role !== 'owner') return;
  if ((await members.countOwners(orgId, m)) <= 1) throw Errors.conflict('The organization must keep at least one owner', 'last_owner');
}
