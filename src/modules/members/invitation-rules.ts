import type { RateLimitRule } from '../../common/rate-limit/rate-limit.service';
import { Errors } from '../../common/errors/domain-error';
import { isUniqueViolation } from '../../common/errors/pg-errors';
import type { Tx } from '../../database/sql.service';
import type { InvitationRow, InvitationsRepository } from './invitations.repository';

/** An invitation can be accepted for this many days. */
export const INVITATION_TTL_DAYS = 7;

/** Invitations created per organization per hour (INVITATION_RATE_LIMIT_PER_HOUR). Fails open like the sign-in limits. */
export const invitationRateRule = (perHour: number): RateLimitRule => ({ name: 'invitations-org', points: perHour, durationSeconds: 3600, failClosed: false });

export const invitationPending = () =>
  Errors.conflict('This email already has a pending invitation to this organization; revoke it to invite again', 'invitation_pending');

export const alreadyMember = () => Errors.conflict('This account is already a member', 'already_member');

/** The partial unique index (one pending invitation per organization and email) caught a lost race. */
export const isPendingInvitationViolation = (e: unknown) => isUniqueViolation(e, 'invitations_one_pending_uq');

/**
 * Refuses to act on an invitation that is no longer pending: an expired one (409
 * `invitation_expired`; its lapse is stored on the way, outside any transaction) or one already
 * accepted, declined or revoked (409 `invitation_closed`).
 */
export async function assertPending(invitations: InvitationsRepository, inv: InvitationRow, m?: Tx): Promise<void> {
  if (inv.status === 'pending') return;
  if (inv.status === 'expired') {
    await invitations.expireLapsed(inv.org_id, inv.email, m);
    throw Errors.conflict(`This invitation expired at ${new Date(inv.expires_at).toISOString()}; ask the organization for a new one`, 'invitation_expired');
  }
  throw Errors.conflict(`This invitation was already ${inv.status}`, 'invitation_closed');
}

/**
 * Closes a pending invitation (accepted, declined, revoked). When it is no longer pending by then
 * (a concurrent accept, decline or revoke won, or it just expired) refuses as `assertPending` does.
 */
export async function closePending(
  invitations: InvitationsRepository,
  inv: InvitationRow,
  status: 'accepted' | 'declined' | 'revoked',
  memberId: string | null,
  m?: Tx,
): Promise<void> {
  if (await invitations.close(inv.org_id, inv.id, status, memberId, m)) return;
  const now = await invitations.findById(inv.org_id, inv.id, m);
  if (now) await assertPending(invitations, now, m);
  throw Errors.conflict('The invitation changed concurrently; retry', 'conflict');
}
