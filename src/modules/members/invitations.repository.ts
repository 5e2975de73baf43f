import { Injectable } from '@nestjs/common';
import { Sql, type Tx } from '../../database/sql.service';
import type { InvitableRole, InvitationStatus } from './entities/invitation.entity';

/** An invitation as responses show it; `status` is the effective one (`expired` once past `expires_at`). */
export interface InvitationRow {
  org_id: string;
  id: string;
  email: string;
  role: InvitableRole;
  status: InvitationStatus;
  invited_by_member_id: string;
  member_id: string | null;
  created_at: Date;
  expires_at: Date;
  closed_at: Date | null;
}

/** An invitation as its invitee sees it: with the organization's name. */
export interface InviteeInvitationRow extends InvitationRow {
  org_name: string;
}

/** Stored `pending` past `expires_at` reads `expired` (the stored status follows when the row is next touched). */
const STATUS = `CASE WHEN i.status = 'pending' AND i.expires_at <= now() THEN 'expired' ELSE i.status END`;
const COLUMNS = `i.org_id, i.id, i.email, i.role, ${STATUS} AS status, i.invited_by_member_id, i.member_id, i.created_at, i.expires_at, i.closed_at`;
const INVITEE_COLUMNS = `${COLUMNS}, o.name AS org_name`;

/** Invitations to join an organization (owned by the members module: accepting one writes a member). */
@Injectable()
export class InvitationsRepository {
  constructor(private readonly sql: Sql) {}

  /** Whether a live member of the organization has an account with this email (any letter case). */
  async memberHasEmail(orgId: string, email: string, m?: Tx): Promise<boolean> {
    const r = await this.sql.row<{ yes: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM users u JOIN members m ON m.org_id = $1 AND m.user_id = u.id AND m.removed_at IS NULL
                      WHERE lower(u.email) = lower($2)) AS yes`,
      [orgId, email],
      m,
    );
    return r?.yes ?? false;
  }

  /** Stores the lapse of the organization's pending invitation for `email`, if it is past its expiry (frees the one-pending slot). */
  async expireLapsed(orgId: string, email: string, m?: Tx): Promise<void> {
    await this.sql.run(
      `UPDATE invitations SET status = 'expired', closed_at = expires_at
        WHERE org_id = $1 AND lower(email) = lower($2) AND status = 'pending' AND expires_at <= now()`,
      [orgId, email],
      m,
    );
  }

  /** The organization's pending, unexpired invitation for `email` (any letter case), or undefined. */
  findPending(orgId: string, email: string, m?: Tx): Promise<InvitationRow | undefined> {
    return this.sql.row<InvitationRow>(
      `SELECT ${COLUMNS} FROM invitations i WHERE i.org_id = $1 AND lower(i.email) = lower($2) AND i.status = 'pending' AND i.expires_at > now()`,
      [orgId, email],
      m,
    );
  }

  /** Stores a pending invitation expiring `ttlDays` days from now; answers it. */
  async insert(
    inv: { orgId: string; id: string; email: string; role: InvitableRole; invitedByMemberId: string; ttlDays: number },
    m?: Tx,
  ): Promise<InvitationRow> {
    return (await this.sql.row<InvitationRow>(
      `INSERT INTO invitations AS i (org_id, id, email, role, status, invited_by_member_id, created_at, expires_at)
       VALUES ($1, $2, $3, $4, 'pending', $5, now(), now() + $6::int * interval '1 day')
       RETURNING ${COLUMNS}`,
      [inv.orgId, inv.id, inv.email, inv.role, inv.invitedByMemberId, inv.ttlDays],
      m,
    ))!;
  }

  /** Invitation `id` of the organization (any status), or undefined. */
  findById(orgId: string, id: string, m?: Tx): Promise<InvitationRow | undefined> {
    return this.sql.row<InvitationRow>(`SELECT ${COLUMNS} FROM invitations i WHERE i.org_id = $1 AND i.id = $2`, [orgId, id], m);
  }

  /** One page of the organization's invitations (newest first), optionally of one effective status, each row with the total. */
  listForOrg(orgId: string, status: InvitationStatus | null, page: { limit: number; offset: number }): Promise<Array<InvitationRow & { total: number }>> {
    return this.sql.rows<InvitationRow & { total: number }>(
      `SELECT ${COLUMNS}, count(*) OVER()::int AS total FROM invitations i
        WHERE i.org_id = $1 AND ($2::text IS NULL OR ${STATUS} = $2)
        ORDER BY i.created_at DESC, i.id LIMIT $3 OFFSET $4`,
      [orgId, status, page.limit, page.offset],
    );
  }

  /** How many of the organization's invitations have the effective status (all when null). */
  async countForOrg(orgId: string, status: InvitationStatus | null): Promise<number> {
    return (await this.sql.row<{ n: number }>(`SELECT count(*)::int AS n FROM invitations i WHERE i.org_id = $1 AND ($2::text IS NULL OR ${STATUS} = $2)`, [
      orgId,
      status,
    ]))!.n;
  }

  /** One page of the pending, unexpired invitations addressed to `email` (any letter case), newest first, each row with the total. */
  listForInvitee(email: string, page: { limit: number; offset: number }): Promise<Array<InviteeInvitationRow & { total: number }>> {
    return this.sql.rows<InviteeInvitationRow & { total: number }>(
      `SELECT ${INVITEE_COLUMNS}, count(*) OVER()::int AS total
         FROM invitations i JOIN organizations o ON o.id = i.org_id
        WHERE lower(i.email) = lower($1) AND i.status = 'pending' AND i.expires_at > now()
        ORDER BY i.created_at DESC, i.id LIMIT $2 OFFSET $3`,
      [email, page.limit, page.offset],
    );
  }

  /** How many pending, unexpired invitations are addressed to `email`. */
  async countForInvitee(email: string): Promise<number> {
    return (await this.sql.row<{ n: number }>(
      `SELECT count(*)::int AS n FROM invitations i WHERE lower(i.email) = lower($1) AND i.status = 'pending' AND i.expires_at > now()`,
      [email],
    ))!.n;
  }

  /** Invitation `id` addressed to `email` (any status, any organization), or undefined: another account's invitation is not found. */
  findForInvitee(id: string, email: string, m?: Tx): Promise<InviteeInvitationRow | undefined> {
    return this.sql.row<InviteeInvitationRow>(
      `SELECT ${INVITEE_COLUMNS} FROM invitations i JOIN organizations o ON o.id = i.org_id WHERE lower(i.email) = lower($2) AND i.id = $1`,
      [id, email],
      m,
    );
  }

  /**
   * Closes invitation `id` if it is still pending and unexpired (row-locked until the transaction
   * ends, so accept, decline and revoke cannot both win); answers whether it did.
   */
  async close(orgId: string, id: string, status: 'accepted' | 'declined' | 'revoked', memberId: string | null, m?: Tx): Promise<boolean> {
    const n = await this.sql.run(
      `UPDATE invitations SET status = $3, member_id = $4, closed_at = now()
        WHERE org_id = $1 AND id = $2 AND status = 'pending' AND expires_at > now()`,
      [orgId, id, status, memberId],
      m,
    );
    return n > 0;
  }
}
