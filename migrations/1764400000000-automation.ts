import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Automation rules and their run history. Rules belong to an organization and optionally to one of
 * its projects (deleted with it). Runs are the rule's durable history (newest 100 kept per rule);
 * one run per rule and triggering domain event (unique), so a re-delivered event never runs twice.
 */
export class Automation1764400000000 implements MigrationInterface {
  name = 'Automation1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE automation_rules (
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        project_id uuid,
        name text NOT NULL CHECK (length(btrim(name)) BETWEEN 1 AND 200),
        trigger_event text NOT NULL CHECK (trigger_event IN ('issue.created', 'issue.status_changed', 'issue.assigned', 'issue.priority_changed', 'issue.updated')),
        conditions jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(conditions) = 'array' AND jsonb_array_length(conditions) <= 20),
        actions jsonb NOT NULL CHECK (jsonb_typeof(actions) = 'array' AND jsonb_array_length(actions) BETWEEN 1 AND 20),
        enabled boolean NOT NULL DEFAULT true,
        created_by_member_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id),
        CONSTRAINT automation_rules_project_fk FOREIGN KEY (org_id, project_id) REFERENCES projects(org_id, id) ON DELETE CASCADE,
        CONSTRAINT automation_rules_created_by_fk FOREIGN KEY (org_id, created_by_member_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED
      );
      CREATE INDEX automation_rules_org_created_idx ON automation_rules (org_id, created_at, id);
      -- the trigger handler's lookup: enabled rules of one organization and trigger
      CREATE INDEX automation_rules_enabled_trigger_idx ON automation_rules (org_id, trigger_event, project_id) WHERE enabled;

      CREATE TABLE automation_rule_runs (
        org_id uuid NOT NULL,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        rule_id uuid NOT NULL,
        event_id uuid NOT NULL,
        trigger_event text NOT NULL CHECK (trigger_event IN ('issue.created', 'issue.status_changed', 'issue.assigned', 'issue.priority_changed', 'issue.updated')),
        issue_id uuid NOT NULL,
        status text NOT NULL CHECK (status IN ('success', 'failed', 'skipped')),
        actions text[] NOT NULL DEFAULT '{}',
        error_code text CHECK (length(error_code) <= 100),
        automation_depth integer NOT NULL CHECK (automation_depth >= 0),
        started_at timestamptz NOT NULL,
        finished_at timestamptz NOT NULL,
        PRIMARY KEY (org_id, id),
        CONSTRAINT automation_rule_runs_rule_fk FOREIGN KEY (org_id, rule_id) REFERENCES automation_rules(org_id, id) ON DELETE CASCADE,
        CONSTRAINT automation_rule_runs_once_uq UNIQUE (org_id, rule_id, event_id),
        CONSTRAINT automation_rule_runs_failed_has_code CHECK ((status = 'success') = (error_code IS NULL))
      );
      CREATE INDEX automation_rule_runs_rule_started_idx ON automation_rule_runs (org_id, rule_id, started_at DESC, id DESC);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS automation_rule_runs; DROP TABLE IF EXISTS automation_rules;');
  }
}
