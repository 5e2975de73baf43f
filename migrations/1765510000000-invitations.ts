import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Invitations replace adding members by email (issue 11, point 4): an owner or admin invites an
 * email address with a role; the account with that email (now or later) sees the invitation and
 * accepts (it becomes a member) or declines. Nothing is disclosed about whether the account exists.
 * A pending invitation lapses at `expires_at` (its status reads `expired` from then on and is
 * stored so the first time the service touches it). At most one pending invitation per organization
 * and email (case-insensitive); pending, unexpired invitations count toward the plan's human limit.
 */
export class Invitations1765510000000 implements MigrationInterface {
  name = 'Invitations1765510000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE invitations (
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        id uuid NOT NULL,
        email text NOT NULL CHECK (length(email) BETWEEN 3 AND 320 AND email = btrim(email) AND email LIKE '%_@_%'),
        role text NOT NULL CHECK (role IN ('admin', 'member', 'guest')),
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'accepted', 'declined', 'revoked', 'expired')),
        invited_by_member_id uuid NOT NULL,
        -- the member record the acceptance created or brought back
        member_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        -- when it left 'pending' (accepted, declined, revoked, or the expiry time)
        closed_at timestamptz,
        PRIMARY KEY (org_id, id),
        -- provenance references are checked at commit, like the members' own (an organization delete cascades through both)
        CONSTRAINT invitations_invited_by_fk FOREIGN KEY (org_id, invited_by_member_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED,
        CONSTRAINT invitations_member_fk FOREIGN KEY (org_id, member_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED,
        CONSTRAINT invitations_expiry_after_creation CHECK (expires_at > created_at),
        CONSTRAINT invitations_closed_iff_not_pending CHECK ((status = 'pending') = (closed_at IS NULL)),
        CONSTRAINT invitations_accepted_has_member CHECK ((status = 'accepted') = (member_id IS NOT NULL))
      );
      -- one pending invitation per organization and email, whatever the letter case
      CREATE UNIQUE INDEX invitations_one_pending_uq ON invitations (org_id, lower(email)) WHERE status = 'pending';
      -- the invitee's view: their invitations by email
      CREATE INDEX invitations_invitee_idx ON invitations (lower(email), created_at);
      -- the organization's list, newest first
      CREATE INDEX invitations_org_created_idx ON invitations (org_id, created_at DESC, id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS invitations;');
  }
}
