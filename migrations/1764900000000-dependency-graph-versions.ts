import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A version number per organization for everything the dependency chain view reads (dependencies,
 * and of issues that take part in one: status, archived, project, number, title; board columns),
 * so the API can keep computed chain pages and trust them while the version is unchanged.
 *
 * - One row per organization, created with it (backfilled here), removed with it. Bumps are plain
 *   UPDATEs from triggers: during an organization delete the cascade may already have removed the
 *   row, and then nothing needs a version any more.
 * - Issue updates bump only when the issue has a dependency (two index probes), so ordinary issue
 *   writes never touch the row. Contention: concurrent transactions that change dependencies or
 *   dependency-bound issues of ONE organization wait on its row from the bump until commit.
 */
export class DependencyGraphVersions1764900000000 implements MigrationInterface {
  name = 'DependencyGraphVersions1764900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE dependency_graph_versions (
        org_id uuid PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
        version bigint NOT NULL DEFAULT 0 CHECK (version >= 0)
      );
      INSERT INTO dependency_graph_versions (org_id) SELECT id FROM organizations;

      CREATE FUNCTION dependency_graph_versions_on_org_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO dependency_graph_versions (org_id) VALUES (NEW.id) ON CONFLICT DO NOTHING;
        RETURN NULL;
      END $$;
      CREATE TRIGGER dependency_graph_versions_org_insert AFTER INSERT ON organizations
        FOR EACH ROW EXECUTE FUNCTION dependency_graph_versions_on_org_insert();

      CREATE FUNCTION dependency_graph_versions_bump() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        o uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.org_id ELSE NEW.org_id END;
      BEGIN
        IF TG_TABLE_NAME = 'issues' AND NOT EXISTS (
             SELECT 1 FROM issue_dependencies d WHERE d.org_id = NEW.org_id AND d.blocked_issue_id = NEW.id
             UNION ALL
             SELECT 1 FROM issue_dependencies d WHERE d.org_id = NEW.org_id AND d.blocking_issue_id = NEW.id) THEN
          RETURN NULL;
        END IF;
        UPDATE dependency_graph_versions SET version = version + 1 WHERE org_id = o;
        RETURN NULL;
      END $$;
      CREATE TRIGGER dependency_graph_versions_dependencies AFTER INSERT OR UPDATE OR DELETE ON issue_dependencies
        FOR EACH ROW EXECUTE FUNCTION dependency_graph_versions_bump();
      CREATE TRIGGER dependency_graph_versions_board_columns AFTER INSERT OR UPDATE OR DELETE ON board_columns
        FOR EACH ROW EXECUTE FUNCTION dependency_graph_versions_bump();
      CREATE TRIGGER dependency_graph_versions_issues AFTER UPDATE OF status, archived_at, project_id, number, title ON issues
        FOR EACH ROW WHEN ((OLD.status, OLD.archived_at, OLD.project_id, OLD.number, OLD.title) IS DISTINCT FROM (NEW.status, NEW.archived_at, NEW.project_id, NEW.number, NEW.title))
        EXECUTE FUNCTION dependency_graph_versions_bump();
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TRIGGER IF EXISTS dependency_graph_versions_issues ON issues;
      DROP TRIGGER IF EXISTS dependency_graph_versions_board_columns ON board_columns;
      DROP TRIGGER IF EXISTS dependency_graph_versions_dependencies ON issue_dependencies;
      DROP TRIGGER IF EXISTS dependency_graph_versions_org_insert ON organizations;
      DROP FUNCTION IF EXISTS dependency_graph_versions_bump(), dependency_graph_versions_on_org_insert();
      DROP TABLE IF EXISTS dependency_graph_versions;
    `);
  }
}
