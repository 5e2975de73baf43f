import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Agents at work (issue 15): agent executions with their transitions, evidence and attention
 * requests; local runner installations (presence, intake) and fenced runner leases.
 *
 * The rules live in the database too, not only in code:
 * - the execution state machine is a trigger (`agent_executions_guard`): only the listed moves,
 *   each bumping `state_version` by exactly one; `needs_human` is entered only while an open
 *   attention item exists and left only when none is open (the attention contract);
 * - one transition row per (execution, resulting version): two writers fenced on one version
 *   cannot both commit;
 * - idempotency keys are unique per (organization, caller, scope, key);
 * - at most one open attention item per execution;
 * - at most one live (`active` or `uncertain`) lease per issue (partial unique index), and claim
 *   generations are unique and increasing per issue; lease writes are conditional updates fenced
 *   by runner, generation, token hash and sequence (see src/modules/runners);
 * - at most one current runner installation per agent.
 * Every key and foreign key carries org_id.
 */
export class Executions1765630000000 implements MigrationInterface {
  name = 'Executions1765630000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE agent_executions (
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        id uuid NOT NULL,
        issue_id uuid NOT NULL,
        agent_member_id uuid NOT NULL,
        created_by_member_id uuid,
        -- provenance only: access always follows the issue's current project
        project_id_at_creation uuid,
        state text NOT NULL DEFAULT 'assigned'
          CHECK (state IN ('assigned', 'running', 'waiting', 'needs_human', 'completed', 'failed', 'cancelled')),
        state_version integer NOT NULL DEFAULT 1 CHECK (state_version >= 1),
        reason text CHECK (length(reason) <= 2000),
        summary text CHECK (length(summary) <= 4000),
        outcome text CHECK (length(outcome) <= 4000),
        failure text CHECK (length(failure) <= 2000),
        harness_kind text CHECK (length(harness_kind) BETWEEN 1 AND 64),
        external_run_id text CHECK (length(external_run_id) BETWEEN 1 AND 200),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        ended_at timestamptz,
        PRIMARY KEY (org_id, id),
        CONSTRAINT agent_executions_issue_fk FOREIGN KEY (org_id, issue_id) REFERENCES issues(org_id, id) ON DELETE CASCADE,
        CONSTRAINT agent_executions_agent_fk FOREIGN KEY (org_id, agent_member_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED,
        CONSTRAINT agent_executions_created_by_fk FOREIGN KEY (org_id, created_by_member_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED,
        CONSTRAINT agent_executions_ended_iff_terminal CHECK ((state IN ('completed', 'failed', 'cancelled')) = (ended_at IS NOT NULL))
      );
      CREATE INDEX agent_executions_issue_idx ON agent_executions (org_id, issue_id, created_at DESC);
      CREATE INDEX agent_executions_agent_idx ON agent_executions (org_id, agent_member_id, created_at DESC);
      CREATE INDEX agent_executions_org_idx ON agent_executions (org_id, created_at DESC, id);

      -- the moves of the execution state machine (generic transitions, cancel, and the attention contract)
      CREATE FUNCTION agent_execution_move_allowed(from_state text, to_state text) RETURNS boolean
        LANGUAGE sql IMMUTABLE AS $$
          SELECT (from_state, to_state) IN (
            ('assigned', 'running'), ('assigned', 'waiting'), ('assigned', 'cancelled'), ('assigned', 'needs_human'),
            ('running', 'waiting'), ('running', 'completed'), ('running', 'failed'), ('running', 'cancelled'), ('running', 'needs_human'),
            ('waiting', 'running'), ('waiting', 'cancelled'), ('waiting', 'needs_human'),
            ('needs_human', 'waiting'), ('needs_human', 'cancelled'))
        $$;

      CREATE TABLE attention_items (
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        id uuid NOT NULL,
        execution_id uuid NOT NULL,
        requester_member_id uuid NOT NULL,
        title text NOT NULL CHECK (length(btrim(title)) BETWEEN 1 AND 200),
        question text NOT NULL CHECK (length(btrim(question)) BETWEEN 1 AND 4000),
        options jsonb NOT NULL DEFAULT '[]'::jsonb CHECK (jsonb_typeof(options) = 'array' AND jsonb_array_length(options) <= 10),
        state text NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'resolved', 'cancelled')),
        version integer NOT NULL DEFAULT 1 CHECK (version >= 1),
        answer text CHECK (length(answer) BETWEEN 1 AND 4000),
        resolved_by_member_id uuid,
        resolved_at timestamptz,
        acknowledged_at timestamptz,
        cancelled_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id),
        CONSTRAINT attention_items_execution_fk FOREIGN KEY (org_id, execution_id) REFERENCES agent_executions(org_id, id) ON DELETE CASCADE,
        CONSTRAINT attention_items_requester_fk FOREIGN KEY (org_id, requester_member_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED,
        CONSTRAINT attention_items_resolver_fk FOREIGN KEY (org_id, resolved_by_member_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED,
        CONSTRAINT attention_items_resolved_shape CHECK ((state = 'resolved') = (answer IS NOT NULL AND resolved_at IS NOT NULL)),
        CONSTRAINT attention_items_cancelled_shape CHECK ((state = 'cancelled') = (cancelled_at IS NOT NULL)),
        CONSTRAINT attention_items_ack_only_resolved CHECK (acknowledged_at IS NULL OR state = 'resolved')
      );
      -- one open request per execution
      CREATE UNIQUE INDEX attention_items_one_open_uq ON attention_items (org_id, execution_id) WHERE state = 'open';
      CREATE INDEX attention_items_requester_idx ON attention_items (org_id, requester_member_id, state, updated_at DESC)
        WHERE state = 'open' OR (state = 'resolved' AND acknowledged_at IS NULL);
      CREATE INDEX attention_items_execution_idx ON attention_items (org_id, execution_id, created_at);

      -- the state machine, enforced on every write of an execution
      CREATE FUNCTION agent_executions_guard() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          IF NEW.state <> 'assigned' OR NEW.state_version <> 1 THEN
            RAISE EXCEPTION 'an execution starts assigned at version 1' USING ERRCODE = 'check_violation', CONSTRAINT = 'agent_executions_state_machine';
          END IF;
          RETURN NEW;
        END IF;
        IF NEW.issue_id <> OLD.issue_id OR NEW.agent_member_id <> OLD.agent_member_id THEN
          RAISE EXCEPTION 'issue and agent of an execution are fixed' USING ERRCODE = 'check_violation', CONSTRAINT = 'agent_executions_state_machine';
        END IF;
        IF NEW.state IS DISTINCT FROM OLD.state THEN
          IF NOT agent_execution_move_allowed(OLD.state, NEW.state) OR NEW.state_version <> OLD.state_version + 1 THEN
            RAISE EXCEPTION 'execution move % -> % not allowed', OLD.state, NEW.state USING ERRCODE = 'check_violation', CONSTRAINT = 'agent_executions_state_machine';
          END IF;
          IF NEW.state = 'needs_human' AND NOT EXISTS (
               SELECT 1 FROM attention_items a WHERE a.org_id = NEW.org_id AND a.execution_id = NEW.id AND a.state = 'open') THEN
            RAISE EXCEPTION 'needs_human needs an open attention item' USING ERRCODE = 'check_violation', CONSTRAINT = 'agent_executions_attention_contract';
          END IF;
          IF OLD.state = 'needs_human' AND NEW.state <> 'cancelled' AND EXISTS (
               SELECT 1 FROM attention_items a WHERE a.org_id = NEW.org_id AND a.execution_id = NEW.id AND a.state = 'open') THEN
            RAISE EXCEPTION 'needs_human is left when its attention item is resolved or cancelled' USING ERRCODE = 'check_violation', CONSTRAINT = 'agent_executions_attention_contract';
          END IF;
        ELSIF NEW.state_version <> OLD.state_version THEN
          RAISE EXCEPTION 'state_version changes only with the state' USING ERRCODE = 'check_violation', CONSTRAINT = 'agent_executions_state_machine';
        END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER agent_executions_guard BEFORE INSERT OR UPDATE ON agent_executions
        FOR EACH ROW EXECUTE FUNCTION agent_executions_guard();

      CREATE TABLE agent_execution_transitions (
        org_id uuid NOT NULL,
        id uuid NOT NULL,
        execution_id uuid NOT NULL,
        from_state text,
        to_state text NOT NULL,
        -- the state_version the move produced
        state_version integer NOT NULL CHECK (state_version >= 1),
        actor_member_id uuid,
        -- 'create', 'transition', 'cancel', 'attention' or 'runner'
        via text NOT NULL CHECK (via IN ('create', 'transition', 'cancel', 'attention', 'runner')),
        reason text CHECK (length(reason) <= 2000),
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id),
        CONSTRAINT agent_execution_transitions_execution_fk FOREIGN KEY (org_id, execution_id) REFERENCES agent_executions(org_id, id) ON DELETE CASCADE,
        CONSTRAINT agent_execution_transitions_actor_fk FOREIGN KEY (org_id, actor_member_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED,
        -- version fencing: one move per resulting version
        CONSTRAINT agent_execution_transitions_version_uq UNIQUE (org_id, execution_id, state_version),
        CONSTRAINT agent_execution_transitions_move CHECK (
          (from_state IS NULL AND to_state = 'assigned' AND state_version = 1) OR agent_execution_move_allowed(from_state, to_state))
      );

      CREATE TABLE agent_execution_evidence (
        org_id uuid NOT NULL,
        id uuid NOT NULL,
        execution_id uuid NOT NULL,
        link_type text NOT NULL CHECK (link_type IN ('issue', 'comment', 'artifact', 'pr_link', 'external_reference', 'attachment')),
        target_id uuid NOT NULL,
        created_by_member_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id),
        CONSTRAINT agent_execution_evidence_execution_fk FOREIGN KEY (org_id, execution_id) REFERENCES agent_executions(org_id, id) ON DELETE CASCADE,
        CONSTRAINT agent_execution_evidence_created_by_fk FOREIGN KEY (org_id, created_by_member_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED,
        CONSTRAINT agent_execution_evidence_uq UNIQUE (org_id, execution_id, link_type, target_id)
      );

      -- idempotency keys of the execution, attention and claim routes: one effect per key;
      -- request_hash (never shown) tells a replay from a reuse with another body
      CREATE TABLE agent_idempotency_keys (
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        member_id uuid NOT NULL,
        scope text NOT NULL CHECK (length(scope) BETWEEN 1 AND 100),
        key text NOT NULL CHECK (length(key) BETWEEN 1 AND 200),
        request_hash text NOT NULL CHECK (request_hash ~ '^[0-9a-f]{64}$'),
        status_code smallint CHECK (status_code BETWEEN 200 AND 299),
        response jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, member_id, scope, key),
        CONSTRAINT agent_idempotency_keys_member_fk FOREIGN KEY (org_id, member_id) REFERENCES members(org_id, id) ON DELETE CASCADE
      );

      CREATE TABLE runner_installations (
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        id uuid NOT NULL,
        agent_member_id uuid NOT NULL,
        instance_id uuid NOT NULL,
        host_id text CHECK (length(host_id) BETWEEN 1 AND 255),
        platform text NOT NULL CHECK (platform IN ('darwin', 'linux', 'windows')),
        arch text NOT NULL CHECK (arch IN ('arm64', 'x64', 'amd64')),
        capabilities text[] NOT NULL DEFAULT '{}' CHECK (capabilities <@ ARRAY['codex', 'git']::text[]),
        client_version text NOT NULL CHECK (client_version ~ '^(0|[1-9][0-9]{0,8})\\.(0|[1-9][0-9]{0,8})\\.(0|[1-9][0-9]{0,8})$'),
        intake_state text NOT NULL DEFAULT 'active' CHECK (intake_state IN ('active', 'paused')),
        last_seen_at timestamptz NOT NULL DEFAULT now(),
        disconnected_at timestamptz,
        replaced_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id),
        CONSTRAINT runner_installations_agent_fk FOREIGN KEY (org_id, agent_member_id) REFERENCES members(org_id, id) ON DELETE CASCADE,
        CONSTRAINT runner_installations_instance_uq UNIQUE (org_id, agent_member_id, instance_id)
      );
      -- at most one current installation per agent (a replaced or disconnected one is history)
      CREATE UNIQUE INDEX runner_installations_current_uq ON runner_installations (org_id, agent_member_id) WHERE replaced_at IS NULL;

      CREATE TABLE runner_intake_events (
        org_id uuid NOT NULL,
        id uuid NOT NULL,
        runner_id uuid NOT NULL,
        from_state text NOT NULL CHECK (from_state IN ('active', 'paused')),
        to_state text NOT NULL CHECK (to_state IN ('active', 'paused')),
        actor_member_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id),
        CONSTRAINT runner_intake_events_runner_fk FOREIGN KEY (org_id, runner_id) REFERENCES runner_installations(org_id, id) ON DELETE CASCADE,
        CONSTRAINT runner_intake_events_actor_fk FOREIGN KEY (org_id, actor_member_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED,
        -- same-state writes are no-ops: never a history row without a change
        CONSTRAINT runner_intake_events_change CHECK (from_state <> to_state)
      );

      CREATE TABLE runner_leases (
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        id uuid NOT NULL,
        issue_id uuid NOT NULL,
        agent_member_id uuid NOT NULL,
        runner_id uuid NOT NULL,
        execution_id uuid,
        -- 'ordinary', or 'human_attention': resumes a waiting execution after its attention request was resolved
        claim_kind text NOT NULL DEFAULT 'ordinary' CHECK (claim_kind IN ('ordinary', 'human_attention')),
        attention_item_id uuid,
        claim_generation integer NOT NULL CHECK (claim_generation >= 1),
        idempotency_key text NOT NULL CHECK (length(idempotency_key) BETWEEN 1 AND 200),
        request_hash text NOT NULL CHECK (request_hash ~ '^[0-9a-f]{64}$'),
        -- SHA-256 (hex) of the current token; the token itself is never stored
        token_hash text NOT NULL CHECK (token_hash ~ '^[0-9a-f]{64}$'),
        sequence integer NOT NULL DEFAULT 0 CHECK (sequence >= 0),
        -- how many times an untouched replay reissued the token (the original claim token is never a recovery token)
        token_reissues integer NOT NULL DEFAULT 0 CHECK (token_reissues >= 0),
        state text NOT NULL DEFAULT 'active'
          CHECK (state IN ('active', 'uncertain', 'completed', 'failed', 'aborted', 'orphaned', 'expired', 'replaced', 'acknowledged')),
        phase text NOT NULL DEFAULT 'pre_intent' CHECK (phase IN ('pre_intent', 'intent_persisted', 'started', 'model_completed')),
        progress text CHECK (progress IN ('preparing', 'turn_intent_persisted', 'sdk_accepted', 'running', 'model_completed', 'finalizing')),
        error_code text CHECK (error_code IN ('runner_error', 'sdk_error', 'model_error', 'timeout', 'cancelled', 'unknown')),
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        ended_at timestamptz,
        PRIMARY KEY (org_id, id),
        CONSTRAINT runner_leases_issue_fk FOREIGN KEY (org_id, issue_id) REFERENCES issues(org_id, id) ON DELETE CASCADE,
        CONSTRAINT runner_leases_agent_fk FOREIGN KEY (org_id, agent_member_id) REFERENCES members(org_id, id) ON DELETE CASCADE,
        CONSTRAINT runner_leases_runner_fk FOREIGN KEY (org_id, runner_id) REFERENCES runner_installations(org_id, id) ON DELETE CASCADE,
        CONSTRAINT runner_leases_execution_fk FOREIGN KEY (org_id, execution_id) REFERENCES agent_executions(org_id, id) ON DELETE SET NULL (execution_id),
        CONSTRAINT runner_leases_generation_uq UNIQUE (org_id, issue_id, claim_generation),
        CONSTRAINT runner_leases_claim_key_uq UNIQUE (org_id, agent_member_id, idempotency_key),
        CONSTRAINT runner_leases_ended_iff_closed CHECK ((state IN ('active', 'uncertain')) = (ended_at IS NULL)),
        CONSTRAINT runner_leases_attention_fk FOREIGN KEY (org_id, attention_item_id) REFERENCES attention_items(org_id, id) ON DELETE CASCADE,
        CONSTRAINT runner_leases_attention_kind CHECK ((claim_kind = 'human_attention') = (attention_item_id IS NOT NULL))
      );
      -- one resume lease per answered attention request, whatever its state (an orphaned one may be retried)
      CREATE UNIQUE INDEX runner_leases_attention_uq ON runner_leases (org_id, attention_item_id) WHERE attention_item_id IS NOT NULL AND state <> 'orphaned';
      -- a lease can never be held twice: one live lease per issue
      CREATE UNIQUE INDEX runner_leases_one_live_uq ON runner_leases (org_id, issue_id) WHERE state IN ('active', 'uncertain');
      CREATE INDEX runner_leases_expiry_idx ON runner_leases (expires_at) WHERE state = 'active';
      CREATE INDEX runner_leases_runner_idx ON runner_leases (org_id, runner_id) WHERE state IN ('active', 'uncertain');

      -- lease fencing in the database: sequence moves by exactly one per accepted write, and the
      -- generation, issue, agent and runner of a lease never change
      CREATE FUNCTION runner_leases_guard() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.issue_id <> OLD.issue_id OR NEW.agent_member_id <> OLD.agent_member_id OR NEW.runner_id <> OLD.runner_id
           OR NEW.claim_generation <> OLD.claim_generation THEN
          RAISE EXCEPTION 'lease identity is fixed' USING ERRCODE = 'check_violation', CONSTRAINT = 'runner_leases_fencing';
        END IF;
        IF NEW.sequence <> OLD.sequence AND NEW.sequence <> OLD.sequence + 1 THEN
          RAISE EXCEPTION 'lease sequence moves by one' USING ERRCODE = 'check_violation', CONSTRAINT = 'runner_leases_fencing';
        END IF;
        IF OLD.state NOT IN ('active', 'uncertain') AND NEW.state IS DISTINCT FROM OLD.state THEN
          RAISE EXCEPTION 'a closed lease stays closed' USING ERRCODE = 'check_violation', CONSTRAINT = 'runner_leases_fencing';
        END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER runner_leases_guard BEFORE UPDATE ON runner_leases FOR EACH ROW EXECUTE FUNCTION runner_leases_guard();

      -- tokens of earlier untouched replays, valid one minute or until one is used (the four newest count)
      CREATE TABLE runner_lease_recovery_tokens (
        org_id uuid NOT NULL,
        lease_id uuid NOT NULL,
        token_hash text NOT NULL CHECK (token_hash ~ '^[0-9a-f]{64}$'),
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (org_id, lease_id, token_hash),
        CONSTRAINT runner_lease_recovery_tokens_lease_fk FOREIGN KEY (org_id, lease_id) REFERENCES runner_leases(org_id, id) ON DELETE CASCADE
      );

      -- accepted lease writes, for exact retries (same mutationId) and the one-write-per-sequence rule
      CREATE TABLE runner_lease_mutations (
        org_id uuid NOT NULL,
        lease_id uuid NOT NULL,
        mutation_id uuid NOT NULL,
        sequence integer NOT NULL CHECK (sequence >= 1),
        transition text NOT NULL,
        request_hash text NOT NULL CHECK (request_hash ~ '^[0-9a-f]{64}$'),
        response jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, lease_id, mutation_id),
        CONSTRAINT runner_lease_mutations_lease_fk FOREIGN KEY (org_id, lease_id) REFERENCES runner_leases(org_id, id) ON DELETE CASCADE,
        CONSTRAINT runner_lease_mutations_sequence_uq UNIQUE (org_id, lease_id, sequence)
      );

      -- a resolved attention request notifies its requester (in-app) and can be delivered to webhooks
      ALTER TABLE notifications DROP CONSTRAINT notifications_event_type_check,
        ADD CONSTRAINT notifications_event_type_check
          CHECK (event_type IN ('mention.created', 'issue.assigned', 'comment.added', 'issue.status_changed', 'attention.resolved'));
      ALTER TABLE notification_preferences DROP CONSTRAINT notification_preferences_event_type_check,
        ADD CONSTRAINT notification_preferences_event_type_check
          CHECK (event_type IN ('mention.created', 'issue.assigned', 'comment.added', 'issue.status_changed', 'attention.resolved'));
      ALTER TABLE webhooks DROP CONSTRAINT webhooks_events_check,
        ADD CONSTRAINT webhooks_events_check CHECK (events <@ ARRAY['issue.created', 'issue.updated', 'artifact.created', 'artifact.revised', 'attention.resolved']::text[]);
      ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_event_check,
        ADD CONSTRAINT webhook_deliveries_event_check CHECK (event IN ('issue.created', 'issue.updated', 'artifact.created', 'artifact.revised', 'attention.resolved', 'ping', 'automation.action'));
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DELETE FROM webhook_deliveries WHERE event = 'attention.resolved';
      UPDATE webhooks SET events = array_remove(events, 'attention.resolved');
      DELETE FROM notification_preferences WHERE event_type = 'attention.resolved';
      DELETE FROM notifications WHERE event_type = 'attention.resolved';
      ALTER TABLE notifications DROP CONSTRAINT notifications_event_type_check,
        ADD CONSTRAINT notifications_event_type_check CHECK (event_type IN ('mention.created', 'issue.assigned', 'comment.added', 'issue.status_changed'));
      ALTER TABLE notification_preferences DROP CONSTRAINT notification_preferences_event_type_check,
        ADD CONSTRAINT notification_preferences_event_type_check CHECK (event_type IN ('mention.created', 'issue.assigned', 'comment.added', 'issue.status_changed'));
      ALTER TABLE webhooks DROP CONSTRAINT webhooks_events_check,
        ADD CONSTRAINT webhooks_events_check CHECK (events <@ ARRAY['issue.created', 'issue.updated', 'artifact.created', 'artifact.revised']::text[]);
      ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_event_check,
        ADD CONSTRAINT webhook_deliveries_event_check CHECK (event IN ('issue.created', 'issue.updated', 'artifact.created', 'artifact.revised', 'ping', 'automation.action'));
      DROP TABLE IF EXISTS runner_lease_mutations, runner_lease_recovery_tokens, runner_leases, runner_intake_events, runner_installations,
        agent_idempotency_keys, agent_execution_evidence, agent_execution_transitions, attention_items, agent_executions;
      DROP FUNCTION IF EXISTS runner_leases_guard();
      DROP FUNCTION IF EXISTS agent_executions_guard();
      DROP FUNCTION IF EXISTS agent_execution_move_allowed(text, text);
    `);
  }
}
