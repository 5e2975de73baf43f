import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue templates and project status updates (issue 20; src/modules/templates,
 * src/modules/project-status).
 *
 * What the database itself guarantees:
 * - a template belongs to one project of its organization or to the organization (project_id
 *   null); its name is unique in that scope in any letter case; content is sanitized HTML of at most
 *   100,000 characters; a project's templates go with the project;
 * - a status update is one of `on_track`, `at_risk`, `off_track` with a summary of 1..10,000
 *   characters; updates are never changed, they go with their project;
 * - webhook destinations may subscribe to `project.status_updated`.
 *
 * Analytics (src/modules/analytics) reads the issues' status moves from the timeline
 * (`issue.updated` entries with a `to_status`): a partial index holds the moves it reads, and
 * those entries bump the `issues` data version like the issue writes they come with (kept
 * analytics results are versioned by it; entries are never updated).
 */
export class ParityExtras1765740000000 implements MigrationInterface {
  name = 'ParityExtras1765740000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE issue_templates (
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        id uuid NOT NULL,
        project_id uuid,
        name text NOT NULL CHECK (length(btrim(name)) BETWEEN 1 AND 200),
        content text NOT NULL CHECK (length(content) <= 100000),
        created_by_member_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id),
        CONSTRAINT issue_templates_project_fk FOREIGN KEY (org_id, project_id) REFERENCES projects(org_id, id) ON DELETE CASCADE,
        CONSTRAINT issue_templates_created_by_fk FOREIGN KEY (org_id, created_by_member_id) REFERENCES members(org_id, id)
      );
      CREATE UNIQUE INDEX issue_templates_name_uq
        ON issue_templates (org_id, COALESCE(project_id, '00000000-0000-0000-0000-000000000000'::uuid), lower(name));

      CREATE TABLE project_status_updates (
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        id uuid NOT NULL,
        project_id uuid NOT NULL,
        status text NOT NULL CHECK (status IN ('on_track', 'at_risk', 'off_track')),
        summary text NOT NULL CHECK (length(summary) BETWEEN 1 AND 10000),
        author_member_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id),
        CONSTRAINT project_status_updates_project_fk FOREIGN KEY (org_id, project_id) REFERENCES projects(org_id, id) ON DELETE CASCADE,
        CONSTRAINT project_status_updates_author_fk FOREIGN KEY (org_id, author_member_id) REFERENCES members(org_id, id)
      );
      CREATE INDEX project_status_updates_latest_idx ON project_status_updates (org_id, project_id, created_at DESC, id DESC);
      -- the heartbeat's project_off_track signal reads the latest updates (kept briefings: 'heartbeat' version)
      CREATE CONSTRAINT TRIGGER data_versions_heartbeat_ins AFTER INSERT OR DELETE ON project_status_updates
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION data_versions_bump('heartbeat');
      CREATE TRIGGER data_versions_heartbeat_truncate AFTER TRUNCATE ON project_status_updates
        FOR EACH STATEMENT EXECUTE FUNCTION data_versions_bump_all('heartbeat');

      -- project-level timeline entries (a status update) name no issue; the feed reads them by project
      CREATE INDEX activity_events_project_level_idx ON activity_events (org_id, project_id, created_at DESC) WHERE issue_id IS NULL;

      CREATE INDEX activity_events_status_moves_idx ON activity_events (org_id, (metadata->>'to_status'), issue_id, created_at)
        WHERE action = 'issue.updated' AND metadata ? 'to_status';
      CREATE CONSTRAINT TRIGGER data_versions_issues_ins AFTER INSERT ON activity_events
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.action = 'issue.updated' AND NEW.metadata ? 'to_status')
        EXECUTE FUNCTION data_versions_bump('issues');
      CREATE CONSTRAINT TRIGGER data_versions_issues_del AFTER DELETE ON activity_events
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.action = 'issue.updated' AND OLD.metadata ? 'to_status')
        EXECUTE FUNCTION data_versions_bump('issues');
      CREATE TRIGGER data_versions_issues_truncate AFTER TRUNCATE ON activity_events
        FOR EACH STATEMENT EXECUTE FUNCTION data_versions_bump_all('issues');

      ALTER TABLE webhooks DROP CONSTRAINT webhooks_events_check,
        ADD CONSTRAINT webhooks_events_check
          CHECK (events <@ ARRAY['issue.created', 'issue.updated', 'artifact.created', 'artifact.revised', 'attention.resolved', 'project.status_updated']::text[]);
      ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_event_check,
        ADD CONSTRAINT webhook_deliveries_event_check
          CHECK (event IN ('issue.created', 'issue.updated', 'artifact.created', 'artifact.revised', 'attention.resolved', 'project.status_updated', 'ping', 'automation.action'));
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DELETE FROM webhook_deliveries WHERE event = 'project.status_updated';
      UPDATE webhooks SET events = array_remove(events, 'project.status_updated');
      ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_event_check,
        ADD CONSTRAINT webhook_deliveries_event_check
          CHECK (event IN ('issue.created', 'issue.updated', 'artifact.created', 'artifact.revised', 'attention.resolved', 'ping', 'automation.action'));
      ALTER TABLE webhooks DROP CONSTRAINT webhooks_events_check,
        ADD CONSTRAINT webhooks_events_check
          CHECK (events <@ ARRAY['issue.created', 'issue.updated', 'artifact.created', 'artifact.revised', 'attention.resolved']::text[]);
      DROP TRIGGER IF EXISTS data_versions_issues_ins ON activity_events;
      DROP TRIGGER IF EXISTS data_versions_issues_del ON activity_events;
      DROP TRIGGER IF EXISTS data_versions_issues_truncate ON activity_events;
      DROP INDEX IF EXISTS activity_events_status_moves_idx;
      DELETE FROM activity_events WHERE issue_id IS NULL AND action = 'project.status_updated';
      DROP INDEX IF EXISTS activity_events_project_level_idx;
      DROP TABLE IF EXISTS project_status_updates;
      DROP TABLE IF EXISTS issue_templates;
    `);
  }
}
