import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The agent heartbeat's state (src/modules/heartbeat):
 * - `heartbeat_policies`: one saved per-agent policy (sections, signal categories, project,
 *   initiative and board-column focus), replaced as a whole; no row = default scope. Stale ids are
 *   kept as saved (they fail closed), so the focus arrays carry no foreign keys to the focused rows.
 * - `heartbeat_streams`: one compact paging stream per member: the current run (its remaining
 *   items, the page the next cursor must name), and the acknowledged baseline that `since` compares
 *   against (item key -> fingerprint).
 */
export class HeartbeatPolicy1765580000000 implements MigrationInterface {
  name = 'HeartbeatPolicy1765580000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE heartbeat_policies (
        org_id uuid NOT NULL,
        agent_member_id uuid NOT NULL,
        sections jsonb NOT NULL CHECK (jsonb_typeof(sections) = 'object'),
        signal_categories jsonb NOT NULL CHECK (jsonb_typeof(signal_categories) = 'object'),
        project_ids uuid[] NOT NULL DEFAULT '{}' CHECK (cardinality(project_ids) <= 100),
        initiative_ids uuid[] NOT NULL DEFAULT '{}' CHECK (cardinality(initiative_ids) <= 100),
        columns jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(columns) = 'array' AND jsonb_array_length(columns) <= 200),
        updated_by_member_id uuid,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, agent_member_id),
        CONSTRAINT heartbeat_policies_agent_fk FOREIGN KEY (org_id, agent_member_id) REFERENCES members(org_id, id) ON DELETE CASCADE,
        CONSTRAINT heartbeat_policies_updated_by_fk FOREIGN KEY (org_id, updated_by_member_id) REFERENCES members(org_id, id) ON DELETE SET NULL (updated_by_member_id)
      );

      CREATE TABLE heartbeat_streams (
        org_id uuid NOT NULL,
        member_id uuid NOT NULL,
        run_id uuid NOT NULL,
        next_page integer NOT NULL CHECK (next_page >= 1),
        remaining jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(remaining) = 'array'),
        run_keys jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(run_keys) = 'object'),
        run_complete boolean NOT NULL DEFAULT false,
        acked_run_id uuid,
        acked_keys jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(acked_keys) = 'object'),
        acked_at timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, member_id),
        CONSTRAINT heartbeat_streams_member_fk FOREIGN KEY (org_id, member_id) REFERENCES members(org_id, id) ON DELETE CASCADE
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS heartbeat_streams, heartbeat_policies;`);
  }
}
