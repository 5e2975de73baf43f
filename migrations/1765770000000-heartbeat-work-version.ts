import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The 'heartbeat_work' data version (read model HEARTBEAT_WORK in src/common/cache/read-models.ts:
 * the heartbeat's organization-wide initiatives with their linked issues, and its unsatisfied
 * dependencies). Same deferred constraint triggers as the other data_versions scopes (bumped once
 * per committing transaction, striped; migration 1765000000000), with one difference: an issue
 * bumps it only when the work can show it, i.e. when at commit it is linked to an initiative
 * (directly, or through its old or new milestone) or is either end of a dependency. So an
 * ordinary issue write (most issues are in neither) keeps the organization's kept work, while the
 * 'issues' version still moves for everything else. Links, dependencies, board columns, blockers'
 * assignees and initiatives bump on every change (a removed link or dependency bumps by itself,
 * also when an issue's deletion cascades to it).
 * TRUNCATE of any of them bumps every organization (data_versions_bump_all).
 */
const TABLES = [
  'issues',
  'issue_assignees',
  'issue_dependencies',
  'board_columns',
  'initiative_issues',
  'initiative_milestones',
  'initiatives',
  'initiative_kpi_impacts',
  'initiative_projects',
  'initiative_targets',
  'initiative_target_issues',
];

export class HeartbeatWorkVersion1765770000000 implements MigrationInterface {
  name = 'HeartbeatWorkVersion1765770000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE data_versions DROP CONSTRAINT data_versions_scope_check;
      ALTER TABLE data_versions ADD CONSTRAINT data_versions_scope_check CHECK (scope IN ('issues', 'strategy', 'heartbeat', 'heartbeat_work'));
      INSERT INTO data_versions (org_id, scope, stripe)
        SELECT o.id, 'heartbeat_work', g.stripe FROM organizations o CROSS JOIN generate_series(0, 7) g(stripe)
        ON CONFLICT DO NOTHING;
      CREATE OR REPLACE FUNCTION data_versions_on_org_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO data_versions (org_id, scope, stripe)
          SELECT NEW.id, s.scope, g.stripe FROM (VALUES ('issues'), ('strategy'), ('heartbeat'), ('heartbeat_work')) s(scope) CROSS JOIN generate_series(0, 7) g(stripe)
          ON CONFLICT DO NOTHING;
        RETURN NULL;
      END $$;

      -- TG_ARGV[0]: the scope. As data_versions_bump, but an issue only when the heartbeat's work shows it (three index probes).
      CREATE FUNCTION data_versions_bump_work() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        o uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.org_id ELSE NEW.org_id END;
        issue uuid;
        ms_old uuid;
        ms_new uuid;
      BEGIN
        IF TG_TABLE_NAME = 'issues' THEN
          issue := CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END;
          ms_old := CASE WHEN TG_OP = 'INSERT' THEN NULL ELSE OLD.milestone_id END;
          ms_new := CASE WHEN TG_OP = 'DELETE' THEN NULL ELSE NEW.milestone_id END;
          IF NOT (EXISTS (SELECT 1 FROM initiative_issues ii WHERE ii.org_id = o AND ii.issue_id = issue)
                  OR EXISTS (SELECT 1 FROM initiative_milestones im WHERE im.org_id = o AND im.milestone_id IN (ms_old, ms_new))
                  OR EXISTS (SELECT 1 FROM issue_dependencies d WHERE d.org_id = o AND d.blocked_issue_id = issue)
                  OR EXISTS (SELECT 1 FROM issue_dependencies d WHERE d.org_id = o AND d.blocking_issue_id = issue)) THEN
            RETURN NULL;
          END IF;
        END IF;
        UPDATE data_versions SET version = version + 1, bumped_xid = pg_current_xact_id()
         WHERE org_id = o AND scope = TG_ARGV[0] AND stripe = pg_backend_pid() % 8 AND bumped_xid IS DISTINCT FROM pg_current_xact_id();
        RETURN NULL;
      END $$;
    `);
    for (const t of TABLES) {
      await q.query(`
        CREATE CONSTRAINT TRIGGER heartbeat_work_version_ins AFTER INSERT OR DELETE ON ${t}
          DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION data_versions_bump_work('heartbeat_work');
        CREATE CONSTRAINT TRIGGER heartbeat_work_version_upd AFTER UPDATE ON ${t}
          DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION data_versions_bump_work('heartbeat_work');
        CREATE TRIGGER heartbeat_work_version_truncate AFTER TRUNCATE ON ${t}
          FOR EACH STATEMENT EXECUTE FUNCTION data_versions_bump_all('heartbeat_work');
      `);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of TABLES) {
      await q.query(`
        DROP TRIGGER IF EXISTS heartbeat_work_version_ins ON ${t};
        DROP TRIGGER IF EXISTS heartbeat_work_version_upd ON ${t};
        DROP TRIGGER IF EXISTS heartbeat_work_version_truncate ON ${t};
      `);
    }
    await q.query(`
      DROP FUNCTION IF EXISTS data_versions_bump_work();
      CREATE OR REPLACE FUNCTION data_versions_on_org_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO data_versions (org_id, scope, stripe)
          SELECT NEW.id, s.scope, g.stripe FROM (VALUES ('issues'), ('strategy'), ('heartbeat')) s(scope) CROSS JOIN generate_series(0, 7) g(stripe)
          ON CONFLICT DO NOTHING;
        RETURN NULL;
      END $$;
      DELETE FROM data_versions WHERE scope = 'heartbeat_work';
      ALTER TABLE data_versions DROP CONSTRAINT data_versions_scope_check;
      ALTER TABLE data_versions ADD CONSTRAINT data_versions_scope_check CHECK (scope IN ('issues', 'strategy', 'heartbeat'));
    `);
  }
}
