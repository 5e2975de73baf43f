import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Attention claims (issue 15): a runner lease may resume an agent thread from an unread attention
 * notification (`claimKind: "attention_resume"`). Leases now record
 * - `runner_host_id`: the host routing identity of the claiming installation (its `host_id` at
 *   claim; for an attention claim the `runnerHostId` it sent, which must equal it);
 * - `thread_id`: the agent thread the lease works in (the `preservedThreadId` of an attention
 *   claim; an ordinary lease learns it from its holder's `threadId` on `turn_intent_persisted` or
 *   `started`, set once) — what a later human-attention resume must match;
 * - `notification_id`: the attention notification an attention claim consumes (unread at claim;
 *   a terminal replay acknowledges it). No foreign key: a notification may be purged while the lease
 *   is history, and a purge must never be refused nor delete leases (the claim checks it exists);
 * - `verification_event_id`: the workflow verification a `verification.completed` resume is bound
 *   to (written by the verified-workflow resume; null otherwise).
 * Host and thread are bounded routing identifiers (the service validates them: no credentials or
 * local paths). Uniqueness: one attention lease per notification in every state but `orphaned`.
 */
export class AttentionClaims1765750000000 implements MigrationInterface {
  name = 'AttentionClaims1765750000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE runner_leases
        ADD COLUMN runner_host_id text CHECK (length(runner_host_id) BETWEEN 1 AND 255),
        ADD COLUMN thread_id text CHECK (length(thread_id) BETWEEN 1 AND 255),
        ADD COLUMN notification_id uuid,
        ADD COLUMN verification_event_id text CHECK (length(verification_event_id) BETWEEN 1 AND 255);
      ALTER TABLE runner_leases DROP CONSTRAINT runner_leases_claim_kind_check,
        ADD CONSTRAINT runner_leases_claim_kind_check CHECK (claim_kind IN ('ordinary', 'human_attention', 'attention_resume'));
      -- an attention_resume lease always names its notification, an ordinary one never does
      ALTER TABLE runner_leases ADD CONSTRAINT runner_leases_notification_kind
        CHECK ((claim_kind = 'attention_resume' AND notification_id IS NOT NULL) OR (claim_kind = 'ordinary' AND notification_id IS NULL) OR claim_kind = 'human_attention');
      -- one attention lease per notification, whatever its state but orphaned (an orphaned one may be retried)
      CREATE UNIQUE INDEX runner_leases_notification_uq ON runner_leases (org_id, notification_id) WHERE notification_id IS NOT NULL AND state <> 'orphaned';
      -- lease routing is fixed: host, notification and verification never change, the thread is set once
      CREATE FUNCTION runner_leases_routing_guard() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF (OLD.thread_id IS NOT NULL AND NEW.thread_id IS DISTINCT FROM OLD.thread_id)
           OR NEW.runner_host_id IS DISTINCT FROM OLD.runner_host_id OR NEW.notification_id IS DISTINCT FROM OLD.notification_id
           OR NEW.verification_event_id IS DISTINCT FROM OLD.verification_event_id THEN
          RAISE EXCEPTION 'lease routing is fixed' USING ERRCODE = 'check_violation', CONSTRAINT = 'runner_leases_routing';
        END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER runner_leases_routing_guard BEFORE UPDATE ON runner_leases FOR EACH ROW EXECUTE FUNCTION runner_leases_routing_guard();
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TRIGGER IF EXISTS runner_leases_routing_guard ON runner_leases;
      DROP FUNCTION IF EXISTS runner_leases_routing_guard();
      DROP INDEX IF EXISTS runner_leases_notification_uq;
      DELETE FROM runner_leases WHERE claim_kind = 'attention_resume';
      ALTER TABLE runner_leases DROP CONSTRAINT runner_leases_notification_kind;
      ALTER TABLE runner_leases DROP CONSTRAINT runner_leases_claim_kind_check,
        ADD CONSTRAINT runner_leases_claim_kind_check CHECK (claim_kind IN ('ordinary', 'human_attention'));
      ALTER TABLE runner_leases DROP COLUMN verification_event_id, DROP COLUMN notification_id, DROP COLUMN thread_id, DROP COLUMN runner_host_id;
    `);
  }
}
