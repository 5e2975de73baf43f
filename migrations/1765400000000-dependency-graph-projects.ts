import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The dependency chain shows each readable node's project key and slug (read from `projects`), so
 * a change of either bumps the organization's dependency-graph version (1764900000000) like any
 * other change the chain reads. The API never changes them after creation; the trigger keeps kept
 * chain pages right when anything else does (and lets every table a read model declares carry its
 * version trigger: src/common/cache/read-models.ts).
 */
export class DependencyGraphProjects1765400000000 implements MigrationInterface {
  name = 'DependencyGraphProjects1765400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TRIGGER dependency_graph_versions_projects AFTER UPDATE OF key, slug ON projects
        FOR EACH ROW WHEN ((OLD.key, OLD.slug) IS DISTINCT FROM (NEW.key, NEW.slug))
        EXECUTE FUNCTION dependency_graph_versions_bump();
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TRIGGER IF EXISTS dependency_graph_versions_projects ON projects');
  }
}
