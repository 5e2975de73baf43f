import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A schema that Citus can distribute on `org_id` (docs/CITUS.md; the catalog check is
 * test/integration/citus-catalog.spec.ts):
 * - The foreign keys that cleared one column on delete (`ON DELETE SET NULL (col)`, which Citus
 *   refuses when the distribution column is in the key: citusdata/citus#7132) become plain
 *   NO ACTION keys on the same columns; none of them was DEFERRABLE and none is now. The deleting
 *   commands clear the referencing columns themselves, in their own transaction, before the delete
 *   (one UPDATE per reference, filtered by org_id, in the owning repository). The 14 of issue 19
 *   plus the two the catalog also showed (heartbeat_policies_updated_by_fk: members are never
 *   deleted but with their organization; runner_leases_execution_fk: executions go with their issue).
 * - `api_key_lookup` (reference table): the one global lookup, API key hash → organization and key,
 *   written in the key's creating transaction and removed with its organization. `api_keys`'
 *   unique hash index now leads with org_id.
 * - `attachments_storage_key_uq` includes org_id.
 * - `storage_deletions` gets org_id (backfilled from the storage key `<org id>/...`; a key without
 *   an organization prefix gets the nil uuid) and is keyed on (org_id, id). No foreign key to
 *   organizations: the queue outlives a deleted organization until its objects are removed.
 * - `oauth_grant_agents_id_uq` (the profile_ref, unique without org_id) goes: the primary key
 *   (org_id, id) keeps it unique per organization, and it is only ever read through its grant.
 */
const FKS: Array<{ table: string; name: string; column: string; references: string }> = [
  { table: 'comments', name: 'comments_reply_fk', column: 'reply_to_comment_id', references: 'comments' },
  { table: 'goals', name: 'goals_project_fk', column: 'project_id', references: 'projects' },
  { table: 'initiatives', name: 'initiatives_goal_fk', column: 'goal_id', references: 'goals' },
  { table: 'initiatives', name: 'initiatives_project_fk', column: 'project_id', references: 'projects' },
  { table: 'issue_dependencies', name: 'issue_dependencies_release_fk', column: 'release_column_id', references: 'board_columns' },
  { table: 'issues', name: 'issues_milestone_fk', column: 'milestone_id', references: 'milestones' },
  { table: 'issues', name: 'issues_parent_fk', column: 'parent_id', references: 'issues' },
  { table: 'issues', name: 'issues_recurrence_source_fk', column: 'recurrence_source_id', references: 'issues' },
  { table: 'issues', name: 'issues_team_fk', column: 'team_id', references: 'teams' },
  { table: 'kpi_http_sync_runs', name: 'kpi_http_sync_runs_snapshot_fk', column: 'snapshot_id', references: 'kpi_snapshots' },
  { table: 'kpi_snapshots', name: 'kpi_snapshots_initiative_fk', column: 'attributed_to_initiative_id', references: 'initiatives' },
  { table: 'kpi_snapshots', name: 'kpi_snapshots_issue_fk', column: 'attributed_to_issue_id', references: 'issues' },
  { table: 'kpis', name: 'kpis_goal_fk', column: 'goal_id', references: 'goals' },
  { table: 'kpis', name: 'kpis_project_fk', column: 'project_id', references: 'projects' },
  { table: 'heartbeat_policies', name: 'heartbeat_policies_updated_by_fk', column: 'updated_by_member_id', references: 'members' },
  { table: 'runner_leases', name: 'runner_leases_execution_fk', column: 'execution_id', references: 'agent_executions' },
];

export class CitusReady1765660000000 implements MigrationInterface {
  name = 'CitusReady1765660000000';

  async up(q: QueryRunner): Promise<void> {
    for (const fk of FKS) {
      await q.query(
        `ALTER TABLE ${fk.table} DROP CONSTRAINT ${fk.name},
           ADD CONSTRAINT ${fk.name} FOREIGN KEY (org_id, ${fk.column}) REFERENCES ${fk.references}(org_id, id)`,
      );
    }
    await q.query(`
      -- Reference table (replicated to every node under Citus): the hash of every API key, kept
      -- while its key row exists (revoked keys too, so a hash stays unique across all keys).
      CREATE TABLE api_key_lookup (
        key_hash bytea PRIMARY KEY CHECK (octet_length(key_hash) = 32),
        org_id uuid NOT NULL,
        api_key_id uuid NOT NULL
      );
      INSERT INTO api_key_lookup (key_hash, org_id, api_key_id) SELECT key_hash, org_id, id FROM api_keys;
      DROP INDEX api_keys_hash_uq;
      CREATE UNIQUE INDEX api_keys_hash_uq ON api_keys (org_id, key_hash);

      DROP INDEX attachments_storage_key_uq;
      CREATE UNIQUE INDEX attachments_storage_key_uq ON attachments (org_id, storage_key);

      ALTER TABLE storage_deletions ADD COLUMN org_id uuid;
      UPDATE storage_deletions SET org_id = CASE
        WHEN split_part(storage_key, '/', 1) ~ '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'
        THEN split_part(storage_key, '/', 1)::uuid
        ELSE '00000000-0000-0000-0000-000000000000'::uuid END;
      ALTER TABLE storage_deletions ALTER COLUMN org_id SET NOT NULL;
      ALTER TABLE storage_deletions DROP CONSTRAINT storage_deletions_pkey, ADD PRIMARY KEY (org_id, id);

      CREATE OR REPLACE FUNCTION attachments_queue_storage_deletion() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO storage_deletions (org_id, storage_key) VALUES (OLD.org_id, OLD.storage_key);
        RETURN OLD;
      END $$;

      DROP INDEX oauth_grant_agents_id_uq;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE UNIQUE INDEX oauth_grant_agents_id_uq ON oauth_grant_agents (id);
      CREATE OR REPLACE FUNCTION attachments_queue_storage_deletion() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO storage_deletions (storage_key) VALUES (OLD.storage_key);
        RETURN OLD;
      END $$;
      ALTER TABLE storage_deletions DROP CONSTRAINT storage_deletions_pkey, ADD PRIMARY KEY (id);
      ALTER TABLE storage_deletions DROP COLUMN org_id;
      DROP INDEX attachments_storage_key_uq;
      CREATE UNIQUE INDEX attachments_storage_key_uq ON attachments (storage_key);
      DROP INDEX api_keys_hash_uq;
      CREATE UNIQUE INDEX api_keys_hash_uq ON api_keys (key_hash);
      DROP TABLE api_key_lookup;
    `);
    for (const fk of FKS) {
      await q.query(
        `ALTER TABLE ${fk.table} DROP CONSTRAINT ${fk.name},
           ADD CONSTRAINT ${fk.name} FOREIGN KEY (org_id, ${fk.column}) REFERENCES ${fk.references}(org_id, id) ON DELETE SET NULL (${fk.column})`,
      );
    }
  }
}
