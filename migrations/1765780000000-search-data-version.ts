import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The 'search' data version (read model ISSUE_SEARCH in src/common/cache/read-models.ts): issue
 * search pages also read live comments, which the 'issues' scope does not cover (a comment must
 * not throw away every kept issue list page). A comment bumps it when it is added, deleted (soft:
 * `deleted_at`), edited or removed; the same deferred constraint triggers as the other scopes.
 */
export class SearchDataVersion1765780000000 implements MigrationInterface {
  name = 'SearchDataVersion1765780000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE data_versions DROP CONSTRAINT data_versions_scope_check;
      ALTER TABLE data_versions ADD CONSTRAINT data_versions_scope_check CHECK (scope IN ('issues', 'strategy', 'heartbeat', 'heartbeat_work', 'search'));
      INSERT INTO data_versions (org_id, scope, stripe)
        SELECT o.id, 'search', g.stripe FROM organizations o CROSS JOIN generate_series(0, 7) g(stripe)
        ON CONFLICT DO NOTHING;
      CREATE OR REPLACE FUNCTION data_versions_on_org_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO data_versions (org_id, scope, stripe)
          SELECT NEW.id, s.scope, g.stripe FROM (VALUES ('issues'), ('strategy'), ('heartbeat'), ('heartbeat_work'), ('search')) s(scope) CROSS JOIN generate_series(0, 7) g(stripe)
          ON CONFLICT DO NOTHING;
        RETURN NULL;
      END $$;
      CREATE CONSTRAINT TRIGGER data_versions_search_ins AFTER INSERT OR DELETE ON comments
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION data_versions_bump('search');
      CREATE CONSTRAINT TRIGGER data_versions_search_upd AFTER UPDATE ON comments
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
        WHEN (OLD.body IS DISTINCT FROM NEW.body OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at OR OLD.issue_id IS DISTINCT FROM NEW.issue_id)
        EXECUTE FUNCTION data_versions_bump('search');
      CREATE TRIGGER data_versions_search_truncate AFTER TRUNCATE ON comments
        FOR EACH STATEMENT EXECUTE FUNCTION data_versions_bump_all('search');
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TRIGGER IF EXISTS data_versions_search_ins ON comments;
      DROP TRIGGER IF EXISTS data_versions_search_upd ON comments;
      DROP TRIGGER IF EXISTS data_versions_search_truncate ON comments;
      CREATE OR REPLACE FUNCTION data_versions_on_org_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO data_versions (org_id, scope, stripe)
          SELECT NEW.id, s.scope, g.stripe FROM (VALUES ('issues'), ('strategy'), ('heartbeat'), ('heartbeat_work')) s(scope) CROSS JOIN generate_series(0, 7) g(stripe)
          ON CONFLICT DO NOTHING;
        RETURN NULL;
      END $$;
      DELETE FROM data_versions WHERE scope = 'search';
      ALTER TABLE data_versions DROP CONSTRAINT data_versions_scope_check;
      ALTER TABLE data_versions ADD CONSTRAINT data_versions_scope_check CHECK (scope IN ('issues', 'strategy', 'heartbeat', 'heartbeat_work'));
    `);
  }
}
