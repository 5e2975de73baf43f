import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `kpi_snapshots.attributed_to_issue_id` had no index: deleting an issue (the clearing UPDATE of
 * the issue's snapshot attributions and the foreign key check) read every snapshot of the
 * organization. Partial, like the initiative attribution's index: most snapshots name no issue.
 */
export class KpiSnapshotIssueIndex1765670000000 implements MigrationInterface {
  name = 'KpiSnapshotIssueIndex1765670000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE INDEX kpi_snapshots_issue_idx ON kpi_snapshots (org_id, attributed_to_issue_id) WHERE attributed_to_issue_id IS NOT NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX IF EXISTS kpi_snapshots_issue_idx');
  }
}
