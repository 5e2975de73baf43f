import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The 'heartbeat' data version (read models HEARTBEAT in src/common/cache/read-models.ts): what
 * the agent heartbeat reads besides the 'issues' and 'strategy' scopes. Same deferred constraint
 * triggers as those scopes (bumped once per committing transaction, striped; migration
 * 1765000000000), on:
 * - notifications: the caller's attention items and summary (every insert, delete, real update,
 *   e.g. an acknowledgement);
 * - comments: only a change of `deleted_at` (a notification about a deleted comment is hidden); a
 *   new comment is in no notification until one is inserted, and a deleted row deletes its
 *   notifications (ON DELETE CASCADE), which bumps;
 * - webhooks: `webhook_failing` (inserts, deletes; updates of a webhook that has or had failures:
 *   the worker's success bookkeeping of healthy webhooks moves nothing);
 * - heartbeat_policies: the saved per-agent policy;
 * - attention_items and agent_executions: `execution_attention` (an agent's open requests and
 *   unacknowledged answers; an execution only by deletion or a change of its issue).
 * TRUNCATE of any of them bumps every organization (data_versions_bump_all).
 */
const TRIGGERS: Array<{ table: string; insDel: boolean; when: string }> = [
  { table: 'notifications', insDel: true, when: 'OLD.* IS DISTINCT FROM NEW.*' },
  { table: 'comments', insDel: false, when: 'OLD.deleted_at IS DISTINCT FROM NEW.deleted_at' },
  {
    table: 'webhooks',
    insDel: true,
    when: '(OLD.consecutive_failures > 0 OR NEW.consecutive_failures > 0) AND OLD.* IS DISTINCT FROM NEW.*',
  },
  { table: 'heartbeat_policies', insDel: true, when: 'OLD.* IS DISTINCT FROM NEW.*' },
  { table: 'attention_items', insDel: true, when: 'OLD.* IS DISTINCT FROM NEW.*' },
  { table: 'agent_executions', insDel: true, when: 'OLD.issue_id IS DISTINCT FROM NEW.issue_id' },
];

export class HeartbeatDataVersion1765650000000 implements MigrationInterface {
  name = 'HeartbeatDataVersion1765650000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE data_versions DROP CONSTRAINT data_versions_scope_check;
      ALTER TABLE data_versions ADD CONSTRAINT data_versions_scope_check CHECK (scope IN ('issues', 'strategy', 'heartbeat'));
      INSERT INTO data_versions (org_id, scope, stripe)
        SELECT o.id, 'heartbeat', g.stripe FROM organizations o CROSS JOIN generate_series(0, 7) g(stripe)
        ON CONFLICT DO NOTHING;
      CREATE OR REPLACE FUNCTION data_versions_on_org_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO data_versions (org_id, scope, stripe)
          SELECT NEW.id, s.scope, g.stripe FROM (VALUES ('issues'), ('strategy'), ('heartbeat')) s(scope) CROSS JOIN generate_series(0, 7) g(stripe)
          ON CONFLICT DO NOTHING;
        RETURN NULL;
      END $$;
    `);
    for (const t of TRIGGERS) {
      if (t.insDel)
        await q.query(`
          CREATE CONSTRAINT TRIGGER data_versions_heartbeat_ins AFTER INSERT OR DELETE ON ${t.table}
            DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION data_versions_bump('heartbeat');`);
      await q.query(`
        CREATE CONSTRAINT TRIGGER data_versions_heartbeat_upd AFTER UPDATE ON ${t.table}
          DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (${t.when}) EXECUTE FUNCTION data_versions_bump('heartbeat');
        CREATE TRIGGER data_versions_heartbeat_truncate AFTER TRUNCATE ON ${t.table}
          FOR EACH STATEMENT EXECUTE FUNCTION data_versions_bump_all('heartbeat');
      `);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of TRIGGERS) {
      await q.query(`
        DROP TRIGGER IF EXISTS data_versions_heartbeat_ins ON ${t.table};
        DROP TRIGGER IF EXISTS data_versions_heartbeat_upd ON ${t.table};
        DROP TRIGGER IF EXISTS data_versions_heartbeat_truncate ON ${t.table};
      `);
    }
    await q.query(`
      CREATE OR REPLACE FUNCTION data_versions_on_org_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO data_versions (org_id, scope, stripe)
          SELECT NEW.id, s.scope, g.stripe FROM (VALUES ('issues'), ('strategy')) s(scope) CROSS JOIN generate_series(0, 7) g(stripe)
          ON CONFLICT DO NOTHING;
        RETURN NULL;
      END $$;
      DELETE FROM data_versions WHERE scope = 'heartbeat';
      ALTER TABLE data_versions DROP CONSTRAINT data_versions_scope_check;
      ALTER TABLE data_versions ADD CONSTRAINT data_versions_scope_check CHECK (scope IN ('issues', 'strategy'));
    `);
  }
}
