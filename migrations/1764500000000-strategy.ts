import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Strategy layer, shared core: goals, KPIs and their snapshots, initiatives and their links
 * (projects, KPI impacts, issues, milestones). Initiative targets and KPI HTTP syncs add their own
 * tables in later migrations. Same scale-out rule: org_id in every key and foreign key.
 *
 * Deleting a project makes project-bound strategy records organization-level (SET NULL) instead of
 * deleting them; deleting a goal leaves its KPIs and initiatives orphaned (the audit reports
 * them); links go with either side (CASCADE).
 */
export class Strategy1764500000000 implements MigrationInterface {
  name = 'Strategy1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE goals (
        org_id uuid NOT NULL,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        title text NOT NULL CHECK (length(btrim(title)) BETWEEN 1 AND 500),
        description text CHECK (length(description) <= 100000),
        owner_member_id uuid,
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'achieved', 'missed', 'paused', 'cancelled')),
        target_date date,
        project_id uuid,
        created_by_member_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id),
        CONSTRAINT goals_org_fk FOREIGN KEY (org_id) REFERENCES organizations(id) ON DELETE CASCADE,
        CONSTRAINT goals_project_fk FOREIGN KEY (org_id, project_id) REFERENCES projects(org_id, id) ON DELETE SET NULL (project_id),
        CONSTRAINT goals_owner_fk FOREIGN KEY (org_id, owner_member_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED,
        CONSTRAINT goals_created_by_fk FOREIGN KEY (org_id, created_by_member_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED
      );
      CREATE INDEX goals_org_status_idx ON goals (org_id, status, created_at DESC);
      CREATE INDEX goals_project_idx ON goals (org_id, project_id) WHERE project_id IS NOT NULL;

      CREATE TABLE kpis (
        org_id uuid NOT NULL,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        goal_id uuid,
        project_id uuid,
        name text NOT NULL CHECK (length(btrim(name)) BETWEEN 1 AND 200),
        description text CHECK (length(description) <= 100000),
        unit text NOT NULL DEFAULT 'count' CHECK (unit IN ('count', 'percentage', 'currency', 'duration', 'ratio', 'custom')),
        unit_label text CHECK (length(unit_label) <= 100),
        baseline_value double precision,
        target_value double precision,
        target_date date,
        target_direction text NOT NULL DEFAULT 'increase' CHECK (target_direction IN ('increase', 'decrease', 'maintain')),
        source_type text NOT NULL DEFAULT 'manual' CHECK (source_type IN ('manual', 'webhook', 'api_poll', 'formula')),
        source_config jsonb,
        stale_after_hours integer CHECK (stale_after_hours > 0),
        current_value double precision,
        last_recorded_at timestamptz,
        created_by_member_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id),
        CONSTRAINT kpis_org_fk FOREIGN KEY (org_id) REFERENCES organizations(id) ON DELETE CASCADE,
        CONSTRAINT kpis_goal_fk FOREIGN KEY (org_id, goal_id) REFERENCES goals(org_id, id) ON DELETE SET NULL (goal_id),
        CONSTRAINT kpis_project_fk FOREIGN KEY (org_id, project_id) REFERENCES projects(org_id, id) ON DELETE SET NULL (project_id),
        CONSTRAINT kpis_created_by_fk FOREIGN KEY (org_id, created_by_member_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED,
        CONSTRAINT kpis_formula_config CHECK (source_type <> 'formula' OR source_config IS NOT NULL)
      );
      CREATE INDEX kpis_goal_idx ON kpis (org_id, goal_id);
      CREATE INDEX kpis_project_idx ON kpis (org_id, project_id) WHERE project_id IS NOT NULL;
      CREATE INDEX kpis_formula_idx ON kpis (org_id, goal_id) WHERE source_type = 'formula';

      CREATE TABLE initiatives (
        org_id uuid NOT NULL,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        title text NOT NULL CHECK (length(btrim(title)) BETWEEN 1 AND 500),
        -- legacy name, kept equal to title
        name text NOT NULL CHECK (length(btrim(name)) BETWEEN 1 AND 500),
        description text CHECK (length(description) <= 100000),
        goal_id uuid,
        owner_member_id uuid,
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('proposed', 'active', 'completed', 'paused', 'cancelled')),
        start_date date,
        target_date date,
        project_id uuid,
        created_by_member_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id),
        CONSTRAINT initiatives_org_fk FOREIGN KEY (org_id) REFERENCES organizations(id) ON DELETE CASCADE,
        CONSTRAINT initiatives_goal_fk FOREIGN KEY (org_id, goal_id) REFERENCES goals(org_id, id) ON DELETE SET NULL (goal_id),
        CONSTRAINT initiatives_project_fk FOREIGN KEY (org_id, project_id) REFERENCES projects(org_id, id) ON DELETE SET NULL (project_id),
        CONSTRAINT initiatives_owner_fk FOREIGN KEY (org_id, owner_member_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED,
        CONSTRAINT initiatives_created_by_fk FOREIGN KEY (org_id, created_by_member_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED,
        CONSTRAINT initiatives_dates_ordered CHECK (start_date IS NULL OR target_date IS NULL OR start_date <= target_date)
      );
      CREATE INDEX initiatives_goal_idx ON initiatives (org_id, goal_id);
      CREATE INDEX initiatives_status_idx ON initiatives (org_id, status, created_at DESC);
      CREATE INDEX initiatives_project_idx ON initiatives (org_id, project_id) WHERE project_id IS NOT NULL;

      CREATE TABLE initiative_projects (
        org_id uuid NOT NULL,
        initiative_id uuid NOT NULL,
        project_id uuid NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, initiative_id, project_id),
        CONSTRAINT initiative_projects_initiative_fk FOREIGN KEY (org_id, initiative_id) REFERENCES initiatives(org_id, id) ON DELETE CASCADE,
        CONSTRAINT initiative_projects_project_fk FOREIGN KEY (org_id, project_id) REFERENCES projects(org_id, id) ON DELETE CASCADE
      );
      CREATE INDEX initiative_projects_project_idx ON initiative_projects (org_id, project_id);

      CREATE TABLE initiative_kpi_impacts (
        org_id uuid NOT NULL,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        initiative_id uuid NOT NULL,
        kpi_id uuid NOT NULL,
        expected_impact text CHECK (length(expected_impact) <= 2000),
        created_by_member_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id),
        CONSTRAINT initiative_kpi_impacts_uq UNIQUE (org_id, initiative_id, kpi_id),
        CONSTRAINT initiative_kpi_impacts_initiative_fk FOREIGN KEY (org_id, initiative_id) REFERENCES initiatives(org_id, id) ON DELETE CASCADE,
        CONSTRAINT initiative_kpi_impacts_kpi_fk FOREIGN KEY (org_id, kpi_id) REFERENCES kpis(org_id, id) ON DELETE CASCADE,
        CONSTRAINT initiative_kpi_impacts_created_by_fk FOREIGN KEY (org_id, created_by_member_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED
      );
      CREATE INDEX initiative_kpi_impacts_kpi_idx ON initiative_kpi_impacts (org_id, kpi_id);

      CREATE TABLE initiative_issues (
        org_id uuid NOT NULL,
        initiative_id uuid NOT NULL,
        issue_id uuid NOT NULL,
        created_by_member_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, initiative_id, issue_id),
        CONSTRAINT initiative_issues_initiative_fk FOREIGN KEY (org_id, initiative_id) REFERENCES initiatives(org_id, id) ON DELETE CASCADE,
        CONSTRAINT initiative_issues_issue_fk FOREIGN KEY (org_id, issue_id) REFERENCES issues(org_id, id) ON DELETE CASCADE,
        CONSTRAINT initiative_issues_created_by_fk FOREIGN KEY (org_id, created_by_member_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED
      );
      CREATE INDEX initiative_issues_issue_idx ON initiative_issues (org_id, issue_id);

      CREATE TABLE initiative_milestones (
        org_id uuid NOT NULL,
        initiative_id uuid NOT NULL,
        milestone_id uuid NOT NULL,
        created_by_member_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, initiative_id, milestone_id),
        CONSTRAINT initiative_milestones_initiative_fk FOREIGN KEY (org_id, initiative_id) REFERENCES initiatives(org_id, id) ON DELETE CASCADE,
        CONSTRAINT initiative_milestones_milestone_fk FOREIGN KEY (org_id, milestone_id) REFERENCES milestones(org_id, id) ON DELETE CASCADE,
        CONSTRAINT initiative_milestones_created_by_fk FOREIGN KEY (org_id, created_by_member_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED
      );
      CREATE INDEX initiative_milestones_milestone_idx ON initiative_milestones (org_id, milestone_id);

      CREATE TABLE kpi_snapshots (
        org_id uuid NOT NULL,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        kpi_id uuid NOT NULL,
        value double precision NOT NULL,
        source text NOT NULL CHECK (source IN ('manual', 'webhook', 'api_poll', 'formula', 'agent')),
        attribution_note text CHECK (length(attribution_note) <= 2000),
        attributed_to_initiative_id uuid,
        attributed_to_issue_id uuid,
        recorded_by_member_id uuid,
        -- provenance of api_poll snapshots written by a published KPI HTTP sync
        source_sync_id uuid,
        source_sync_run_id uuid,
        source_config_hash text CHECK (length(source_config_hash) <= 100),
        source_recorded_for text CHECK (length(source_recorded_for) <= 100),
        observed_at timestamptz,
        provider_recorded_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id),
        CONSTRAINT kpi_snapshots_kpi_fk FOREIGN KEY (org_id, kpi_id) REFERENCES kpis(org_id, id) ON DELETE CASCADE,
        CONSTRAINT kpi_snapshots_initiative_fk FOREIGN KEY (org_id, attributed_to_initiative_id) REFERENCES initiatives(org_id, id) ON DELETE SET NULL (attributed_to_initiative_id),
        CONSTRAINT kpi_snapshots_issue_fk FOREIGN KEY (org_id, attributed_to_issue_id) REFERENCES issues(org_id, id) ON DELETE SET NULL (attributed_to_issue_id),
        CONSTRAINT kpi_snapshots_recorded_by_fk FOREIGN KEY (org_id, recorded_by_member_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED,
        CONSTRAINT kpi_snapshots_api_poll_provenance CHECK (source <> 'api_poll' OR (source_sync_id IS NOT NULL AND source_sync_run_id IS NOT NULL AND source_config_hash IS NOT NULL AND observed_at IS NOT NULL))
      );
      CREATE INDEX kpi_snapshots_kpi_idx ON kpi_snapshots (org_id, kpi_id, created_at DESC, id DESC);
      CREATE INDEX kpi_snapshots_initiative_idx ON kpi_snapshots (org_id, attributed_to_initiative_id) WHERE attributed_to_initiative_id IS NOT NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE IF EXISTS kpi_snapshots, initiative_milestones, initiative_issues, initiative_kpi_impacts, initiative_projects, initiatives, kpis, goals CASCADE;
    `);
  }
}
