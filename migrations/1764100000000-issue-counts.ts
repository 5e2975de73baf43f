import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Speed of the issue list (work tracking, "Speed").
 *
 * 1. `issue_counts`: the number of issues per (organization, project, status, priority, archived),
 *    kept exact by statement-level triggers on `issues` (transition tables: one aggregated delta
 *    per key and statement, so a bulk insert or a column reassignment costs a handful of row
 *    updates). The list answers its `total` from these rows whenever its filters are only
 *    project / status / priority / archived / open and the caller's readable projects, instead of
 *    counting up to 100,000 index entries per request.
 *    - Increments are `INSERT … ON CONFLICT DO UPDATE SET n = n + delta` (no lost update), applied in
 *      key order (no deadlock between two statements of one shape). Decrements are plain UPDATEs:
 *      the row of a visible issue always exists (its creation wrote it in the same transaction),
 *      and during a project or organization delete the cascade may already have removed it.
 *    - Contention: creations already serialize on the organization row (plan check) and on the
 *      project's (or organization's) number counter, so the count rows add no wait there; two
 *      concurrent updates wait on a count row only when both move issues out of or into the same
 *      (project, status, priority, archived) key, from the trigger until their commit.
 *    - project_id NULL = projectless issues (NULLS NOT DISTINCT key). Rows cascade with their
 *      project and organization; rows at 0 are kept (a later issue reuses them).
 * 2. Indexes so that every list order is a top-N index scan: priority and due date descending,
 *    title (case-insensitive) and the workflow order of `status`, all on non-archived issues.
 */
export class IssueCounts1764100000000 implements MigrationInterface {
  name = 'IssueCounts1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE issue_counts (
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        project_id uuid,
        status text NOT NULL,
        priority smallint NOT NULL,
        archived boolean NOT NULL,
        n bigint NOT NULL CHECK (n >= 0),
        CONSTRAINT issue_counts_key UNIQUE NULLS NOT DISTINCT (org_id, project_id, status, priority, archived),
        CONSTRAINT issue_counts_project_fk FOREIGN KEY (org_id, project_id) REFERENCES projects(org_id, id) ON DELETE CASCADE
      );

    `);
    // One function per event: a plpgsql function may only name the transition tables its trigger
    // declares, so each event gets a thin wrapper over the same SQL.
    for (const op of ['insert', 'update', 'delete'] as const) {
      const newT = op !== 'delete';
      const oldT = op !== 'insert';
      await q.query(`
        CREATE FUNCTION issue_counts_on_${op}() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE
          r record;
        BEGIN
          FOR r IN
            SELECT org_id, project_id, status, priority, archived, sum(delta)::bigint AS delta
              FROM (
                ${[
                  newT ? 'SELECT org_id, project_id, status, priority, archived_at IS NOT NULL AS archived, 1 AS delta FROM new_rows' : '',
                  oldT ? 'SELECT org_id, project_id, status, priority, archived_at IS NOT NULL AS archived, -1 AS delta FROM old_rows' : '',
                ]
                  .filter(Boolean)
                  .join(' UNION ALL ')}
              ) c
             GROUP BY org_id, project_id, status, priority, archived
            HAVING sum(delta) <> 0
             ORDER BY org_id, project_id NULLS FIRST, status, priority, archived
          LOOP
            IF r.delta > 0 THEN
              INSERT INTO issue_counts AS ic (org_id, project_id, status, priority, archived, n)
              VALUES (r.org_id, r.project_id, r.status, r.priority, r.archived, r.delta)
              ON CONFLICT ON CONSTRAINT issue_counts_key DO UPDATE SET n = ic.n + EXCLUDED.n;
            ELSE
              UPDATE issue_counts SET n = n + r.delta
               WHERE org_id = r.org_id AND project_id IS NOT DISTINCT FROM r.project_id AND status = r.status
                 AND priority = r.priority AND archived = r.archived;
            END IF;
          END LOOP;
          RETURN NULL;
        END $$;
        CREATE TRIGGER issue_counts_${op} AFTER ${op.toUpperCase()} ON issues
          REFERENCING ${[newT ? 'NEW TABLE AS new_rows' : '', oldT ? 'OLD TABLE AS old_rows' : ''].filter(Boolean).join(' ')}
          FOR EACH STATEMENT EXECUTE FUNCTION issue_counts_on_${op}();
      `);
    }
    await q.query(`
      CREATE FUNCTION issue_counts_on_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM issue_counts;
        RETURN NULL;
      END $$;
      CREATE TRIGGER issue_counts_truncate AFTER TRUNCATE ON issues FOR EACH STATEMENT EXECUTE FUNCTION issue_counts_on_truncate();

      -- backfill under a lock that keeps writers out until this migration commits
      LOCK TABLE issues IN SHARE MODE;
      INSERT INTO issue_counts (org_id, project_id, status, priority, archived, n)
      SELECT org_id, project_id, status, priority, archived_at IS NOT NULL, count(*) FROM issues
       GROUP BY org_id, project_id, status, priority, archived_at IS NOT NULL;

      CREATE INDEX issues_org_live_priority_desc_idx ON issues (org_id, priority DESC, created_at DESC, id DESC) WHERE archived_at IS NULL;
      CREATE INDEX issues_org_live_due_desc_idx ON issues (org_id, due_date DESC NULLS LAST, id DESC) WHERE archived_at IS NULL;
      CREATE INDEX issues_org_live_title_idx ON issues (org_id, lower(title), id) WHERE archived_at IS NULL;
      CREATE INDEX issues_org_live_workflow_idx ON issues (org_id,
        (CASE status WHEN 'backlog' THEN 0 WHEN 'todo' THEN 1 WHEN 'in_progress' THEN 2 WHEN 'done' THEN 4 WHEN 'cancelled' THEN 5 ELSE 3 END),
        status, id) WHERE archived_at IS NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP INDEX IF EXISTS issues_org_live_priority_desc_idx, issues_org_live_due_desc_idx, issues_org_live_title_idx, issues_org_live_workflow_idx;
      DROP TRIGGER IF EXISTS issue_counts_insert ON issues;
      DROP TRIGGER IF EXISTS issue_counts_update ON issues;
      DROP TRIGGER IF EXISTS issue_counts_delete ON issues;
      DROP TRIGGER IF EXISTS issue_counts_truncate ON issues;
      DROP FUNCTION IF EXISTS issue_counts_on_insert(), issue_counts_on_update(), issue_counts_on_delete(), issue_counts_on_truncate();
      DROP TABLE IF EXISTS issue_counts;
    `);
  }
}
