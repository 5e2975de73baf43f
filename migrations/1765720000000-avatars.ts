import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Member avatars (interface.md "Avatars") and the Google Chat member links (interface.md "Chat
 * provider integration"):
 * - `members.avatar_storage_key`: the stored object (src/common/storage key `<org id>/<random>`)
 *   behind `members.avatar_url`; both change together, by compare-and-set on the key.
 * - `avatar_cleanups`: the durable queue of avatar objects to remove: `staged` (an upload stored
 *   before its pointer changed, due only after the upload can no longer be running) and `retired`
 *   (a replaced or deleted avatar). The worker drains it every 15 minutes; the avatar requests
 *   remove their own rows at once when they can. No foreign key to organizations: the queue
 *   outlives a deleted organization until its objects are removed (like storage_deletions).
 *   Deleting a member row (an organization's cascade) queues its avatar by trigger.
 * - `chat_member_links`: a member's link to a chat provider account (google_chat), removed by
 *   the member's disconnect.
 * org_id leads every key (docs/CITUS.md: both tables distribute on it).
 */
export class Avatars1765720000000 implements MigrationInterface {
  name = 'Avatars1765720000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE members ADD COLUMN avatar_storage_key text,
        ADD CONSTRAINT members_avatar_key_check CHECK (avatar_storage_key IS NULL OR starts_with(avatar_storage_key, org_id::text || '/'));

      CREATE TABLE avatar_cleanups (
        org_id uuid NOT NULL,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        storage_key text NOT NULL CHECK (starts_with(storage_key, org_id::text || '/')),
        kind text NOT NULL CHECK (kind IN ('staged', 'retired')),
        attempts integer NOT NULL DEFAULT 0,
        last_error text,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id)
      );
      CREATE INDEX avatar_cleanups_due_idx ON avatar_cleanups (next_attempt_at);

      CREATE FUNCTION members_queue_avatar_cleanup() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO avatar_cleanups (org_id, storage_key, kind) VALUES (OLD.org_id, OLD.avatar_storage_key, 'retired');
        RETURN OLD;
      END $$;
      CREATE TRIGGER members_avatar_cleanup AFTER DELETE ON members
        FOR EACH ROW WHEN (OLD.avatar_storage_key IS NOT NULL) EXECUTE FUNCTION members_queue_avatar_cleanup();

      CREATE TABLE chat_member_links (
        org_id uuid NOT NULL,
        member_id uuid NOT NULL,
        provider text NOT NULL CHECK (provider IN ('google_chat')),
        external_user_id text NOT NULL,
        space_name text,
        linked_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, member_id, provider),
        CONSTRAINT chat_member_links_member_fk FOREIGN KEY (org_id, member_id) REFERENCES members(org_id, id) ON DELETE CASCADE
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE IF EXISTS chat_member_links;
      DROP TRIGGER IF EXISTS members_avatar_cleanup ON members;
      DROP FUNCTION IF EXISTS members_queue_avatar_cleanup();
      DROP TABLE IF EXISTS avatar_cleanups;
      ALTER TABLE members DROP CONSTRAINT IF EXISTS members_avatar_key_check, DROP COLUMN IF EXISTS avatar_storage_key;
    `);
  }
}
