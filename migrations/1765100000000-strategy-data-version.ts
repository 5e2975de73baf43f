import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tables the strategy audit reads (src/modules/strategy-health/strategy-health.loader.ts and
 * DependencyRules' SQL) that the 'issues' scope (1765000000000) does not already version. The
 * audit keys its kept results by both scopes ('issues' covers issues, projects, issue_dependencies,
 * board_columns, initiative_issues, initiative_milestones).
 */
const STRATEGY_SCOPE_TABLES = [
  'goals',
  'kpis',
  'kpi_snapshots',
  'initiatives',
  'initiative_kpi_impacts',
  'initiative_projects',
  'milestones',
  'initiative_targets',
  'initiative_target_issues',
  'initiative_target_milestones',
];

/**
 * The 'strategy' data version: bumped once per committing transaction that changes a row the
 * strategy audit reads (same deferred constraint triggers as the 'issues' scope). TRUNCATE fires
 * no row trigger, so a statement trigger (data_versions_bump_all, migration 1765000000000) bumps
 * every organization's 'strategy' version then.
 */
export class StrategyDataVersion1765100000000 implements MigrationInterface {
  name = 'StrategyDataVersion1765100000000';

  async up(q: QueryRunner): Promise<void> {
    for (const t of STRATEGY_SCOPE_TABLES) {
      await q.query(`
        CREATE CONSTRAINT TRIGGER data_versions_strategy_ins AFTER INSERT OR DELETE ON ${t}
          DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION data_versions_bump('strategy');
        CREATE CONSTRAINT TRIGGER data_versions_strategy_upd AFTER UPDATE ON ${t}
          DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION data_versions_bump('strategy');
        CREATE TRIGGER data_versions_strategy_truncate AFTER TRUNCATE ON ${t}
          FOR EACH STATEMENT EXECUTE FUNCTION data_versions_bump_all('strategy');
      `);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of STRATEGY_SCOPE_TABLES) {
      await q.query(`
        DROP TRIGGER IF EXISTS data_versions_strategy_ins ON ${t};
        DROP TRIGGER IF EXISTS data_versions_strategy_upd ON ${t};
        DROP TRIGGER IF EXISTS data_versions_strategy_truncate ON ${t};
      `);
    }
  }
}
