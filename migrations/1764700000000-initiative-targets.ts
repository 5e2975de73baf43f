import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Initiative targets: measurable or gate outcomes of an initiative, with a typed project scope that
 * decides authorization, and their issue and milestone links.
 *
 * - `scope_type = 'initiative'`: the target is scoped to its initiative's projects (the initiative's
 *   `project_id` plus `initiative_projects`), followed live.
 * - `scope_type = 'projects'`: the target is scoped to the projects in `initiative_target_projects`
 *   (a subset the caller chose). When every scope project is deleted the target becomes
 *   organization-level (owner/admin writes, non-guest reads), like a projectless initiative.
 * - `mode = 'gate'`: progress is stateful: `current_value` is the count of completed items and
 *   `target_value` the count needed (whole, non-negative numbers, e.g. 3 of 5); `due_soon_days` is
 *   the due-soon window before `target_date`. Gates never use pace language.
 * - `mode = 'progress'`: `current_value` moves from `baseline_value` to `target_value` in
 *   `target_direction`.
 */
export class InitiativeTargets1764700000000 implements MigrationInterface {
  name = 'InitiativeTargets1764700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE initiative_targets (
        org_id uuid NOT NULL,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        initiative_id uuid NOT NULL,
        title text NOT NULL CHECK (length(btrim(title)) BETWEEN 1 AND 500),
        description text CHECK (length(description) <= 100000),
        mode text NOT NULL DEFAULT 'progress' CHECK (mode IN ('progress', 'gate')),
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'completed', 'cancelled')),
        unit text NOT NULL DEFAULT 'count' CHECK (unit IN ('count', 'percentage', 'currency', 'duration', 'ratio', 'custom')),
        unit_label text CHECK (length(unit_label) <= 100),
        baseline_value double precision CHECK (baseline_value = baseline_value AND abs(baseline_value) < 'Infinity'),
        current_value double precision CHECK (current_value = current_value AND abs(current_value) < 'Infinity'),
        target_value double precision CHECK (target_value = target_value AND abs(target_value) < 'Infinity'),
        target_direction text NOT NULL DEFAULT 'increase' CHECK (target_direction IN ('increase', 'decrease', 'maintain')),
        target_date date,
        due_soon_days integer NOT NULL DEFAULT 7 CHECK (due_soon_days BETWEEN 0 AND 365),
        scope_type text NOT NULL DEFAULT 'initiative' CHECK (scope_type IN ('initiative', 'projects')),
        created_by_member_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id),
        CONSTRAINT initiative_targets_initiative_fk FOREIGN KEY (org_id, initiative_id) REFERENCES initiatives(org_id, id) ON DELETE CASCADE,
        CONSTRAINT initiative_targets_created_by_fk FOREIGN KEY (org_id, created_by_member_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED,
        CONSTRAINT initiative_targets_gate_counts CHECK (mode <> 'gate' OR (
          (current_value IS NULL OR (current_value >= 0 AND current_value = trunc(current_value))) AND
          (target_value IS NULL OR (target_value >= 0 AND target_value = trunc(target_value)))))
      );
      CREATE INDEX initiative_targets_initiative_idx ON initiative_targets (org_id, initiative_id, created_at, id);
      CREATE INDEX initiative_targets_due_idx ON initiative_targets (org_id, target_date) WHERE status = 'active' AND target_date IS NOT NULL;

      CREATE TABLE initiative_target_projects (
        org_id uuid NOT NULL,
        target_id uuid NOT NULL,
        project_id uuid NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, target_id, project_id),
        CONSTRAINT initiative_target_projects_target_fk FOREIGN KEY (org_id, target_id) REFERENCES initiative_targets(org_id, id) ON DELETE CASCADE,
        CONSTRAINT initiative_target_projects_project_fk FOREIGN KEY (org_id, project_id) REFERENCES projects(org_id, id) ON DELETE CASCADE
      );
      CREATE INDEX initiative_target_projects_project_idx ON initiative_target_projects (org_id, project_id);

      CREATE TABLE initiative_target_issues (
        org_id uuid NOT NULL,
        target_id uuid NOT NULL,
        issue_id uuid NOT NULL,
        created_by_member_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, target_id, issue_id),
        CONSTRAINT initiative_target_issues_target_fk FOREIGN KEY (org_id, target_id) REFERENCES initiative_targets(org_id, id) ON DELETE CASCADE,
        CONSTRAINT initiative_target_issues_issue_fk FOREIGN KEY (org_id, issue_id) REFERENCES issues(org_id, id) ON DELETE CASCADE,
        CONSTRAINT initiative_target_issues_created_by_fk FOREIGN KEY (org_id, created_by_member_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED
      );
      CREATE INDEX initiative_target_issues_issue_idx ON initiative_target_issues (org_id, issue_id);

      CREATE TABLE initiative_target_milestones (
        org_id uuid NOT NULL,
        target_id uuid NOT NULL,
        milestone_id uuid NOT NULL,
        created_by_member_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, target_id, milestone_id),
        CONSTRAINT initiative_target_milestones_target_fk FOREIGN KEY (org_id, target_id) REFERENCES initiative_targets(org_id, id) ON DELETE CASCADE,
        CONSTRAINT initiative_target_milestones_milestone_fk FOREIGN KEY (org_id, milestone_id) REFERENCES milestones(org_id, id) ON DELETE CASCADE,
        CONSTRAINT initiative_target_milestones_created_by_fk FOREIGN KEY (org_id, created_by_member_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED
      );
      CREATE INDEX initiative_target_milestones_milestone_idx ON initiative_target_milestones (org_id, milestone_id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS initiative_target_milestones, initiative_target_issues, initiative_target_projects, initiative_targets CASCADE;`);
  }
}
