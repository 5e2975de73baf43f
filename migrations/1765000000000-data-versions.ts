import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Tables whose rows feed issue lists (items, totals, and the filters: initiative, labels, blocked). */
const ISSUE_SCOPE_TABLES = [
  'issues',
  'issue_assignees',
  'issue_labels',
  'projects',
  'issue_dependencies',
  'board_columns',
  'initiative_issues',
  'initiative_milestones',
];

/**
 * Version numbers per organization and read model (`scope`), so an API process can keep computed
 * read results (issue list pages; the strategy audit) and trust them while the version is
 * unchanged. Any process, any number of them: each request reads the version (one index range
 * read) before it uses or computes a result, and a result is stored under the version read
 * BEFORE it was computed, so a stored result is never older than its version.
 *
 * - The version of (organization, scope) is the SUM of STRIPES counters (rows `stripe` 0..7),
 *   created with the organization (backfilled here), removed with it. A writer bumps the stripe of
 *   its database session (`pg_backend_pid() % 8`): concurrent writers of one organization mostly
 *   lock different rows, so their commits do not queue behind each other's WAL flush. Every bump
 *   adds 1 to one counter and counters never decrease, so the sum changes with every committed
 *   bump; a reader reads all stripes in one statement (one snapshot).
 * - The bump is a DEFERRED constraint trigger: it runs at COMMIT, so a stripe's row lock is held
 *   only while the transaction commits, not for the whole write transaction. It bumps once per
 *   transaction (`bumped_xid`); further rows of the same transaction find the stripe already
 *   bumped and update nothing.
 * - The bump becomes visible atomically with the data it stands for (same transaction).
 */
export class DataVersions1765000000000 implements MigrationInterface {
  name = 'DataVersions1765000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE data_versions (
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        scope text NOT NULL CHECK (scope IN ('issues', 'strategy')),
        stripe smallint NOT NULL CHECK (stripe BETWEEN 0 AND 7),
        version bigint NOT NULL DEFAULT 0 CHECK (version >= 0),
        bumped_xid xid8,
        PRIMARY KEY (org_id, scope, stripe)
      );
      INSERT INTO data_versions (org_id, scope, stripe)
        SELECT o.id, s.scope, g.stripe FROM organizations o CROSS JOIN (VALUES ('issues'), ('strategy')) s(scope) CROSS JOIN generate_series(0, 7) g(stripe);

      CREATE FUNCTION data_versions_on_org_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO data_versions (org_id, scope, stripe)
          SELECT NEW.id, s.scope, g.stripe FROM (VALUES ('issues'), ('strategy')) s(scope) CROSS JOIN generate_series(0, 7) g(stripe)
          ON CONFLICT DO NOTHING;
        RETURN NULL;
      END $$;
      CREATE TRIGGER data_versions_org_insert AFTER INSERT ON organizations
        FOR EACH ROW EXECUTE FUNCTION data_versions_on_org_insert();

      -- TG_ARGV[0]: the scope to bump. Also usable from other migrations' triggers.
      CREATE FUNCTION data_versions_bump() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        o uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.org_id ELSE NEW.org_id END;
      BEGIN
        UPDATE data_versions SET version = version + 1, bumped_xid = pg_current_xact_id()
         WHERE org_id = o AND scope = TG_ARGV[0] AND stripe = pg_backend_pid() % 8 AND bumped_xid IS DISTINCT FROM pg_current_xact_id();
        RETURN NULL;
      END $$;

      -- TG_ARGV[0]: the scope; for TRUNCATE, which fires no row trigger and names no organization.
      CREATE FUNCTION data_versions_bump_all() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE data_versions SET version = version + 1, bumped_xid = pg_current_xact_id()
         WHERE scope = TG_ARGV[0] AND stripe = pg_backend_pid() % 8 AND bumped_xid IS DISTINCT FROM pg_current_xact_id();
        RETURN NULL;
      END $$;
    `);
    for (const t of ISSUE_SCOPE_TABLES) {
      await q.query(`
        CREATE CONSTRAINT TRIGGER data_versions_issues_ins AFTER INSERT OR DELETE ON ${t}
          DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION data_versions_bump('issues');
        CREATE CONSTRAINT TRIGGER data_versions_issues_upd AFTER UPDATE ON ${t}
          DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION data_versions_bump('issues');
        CREATE TRIGGER data_versions_issues_truncate AFTER TRUNCATE ON ${t}
          FOR EACH STATEMENT EXECUTE FUNCTION data_versions_bump_all('issues');
      `);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ISSUE_SCOPE_TABLES) {
      await q.query(
        `DROP TRIGGER IF EXISTS data_versions_issues_ins ON ${t}; DROP TRIGGER IF EXISTS data_versions_issues_upd ON ${t}; DROP TRIGGER IF EXISTS data_versions_issues_truncate ON ${t};`,
      );
    }
    await q.query(`
      DROP TRIGGER IF EXISTS data_versions_org_insert ON organizations;
      DROP FUNCTION IF EXISTS data_versions_bump(), data_versions_bump_all(), data_versions_on_org_insert();
      DROP TABLE IF EXISTS data_versions;
    `);
  }
}
