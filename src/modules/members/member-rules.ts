import type { EntityManager } from 'typeorm';
import type { Actor } from '../../common/auth/principal';
import { Errors } from '../../common/errors/domain-error';
import { MemberEntity } from './entities/member.entity';

/**
 * Loads the target member inside a transaction after locking the organization row, so role
 * changes and removals of one organization run one at a time (the last-owner rule cannot race).
 */
export async function lockAndLoadMember(m: EntityManager, actor: Actor, memberId: string): Promise<MemberEntity> {
  await m.query('SELECT 1 FROM organizations WHERE id = $1 FOR UPDATE', [actor.orgId]);
  const target = await m.findOneBy(MemberEntity, { orgId: actor.orgId, id: memberId });
  if (!target || target.removedAt) throw Errors.notFound('Member not found');
  return target;
}

export async function assertNotLastOwner(m: EntityManager, orgId: string, target: MemberEntity): Promise<void> {
  if (target.role !== 'owner') return;
  const r: Array<{ n: number }> = await m.query(`SELECT count(*)::int AS n FROM members WHERE org_id = $1 AND role = 'owner' AND removed_at IS NULL`, [orgId]);
  if (r[0].n <= 1) throw Errors.conflict('The organization must keep at least one owner', 'last_owner');
}
