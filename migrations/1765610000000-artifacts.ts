import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Artifacts: versioned documents linked to issues and projects (src/modules/artifacts).
 *
 * What the database itself guarantees (the application checks first and answers clearer errors):
 * - revisions are immutable: no UPDATE; a DELETE only when its artifact is gone (organization delete);
 * - revision numbers of an artifact are 1, 2, 3, … with no repeat (unique) and no gap (each revision
 *   after the first references its predecessor through `previous_revision_number`);
 * - an artifact's current pointer (id, number and title) is one of its own revisions, and it only
 *   ever moves to the next number; the type never changes;
 * - content at most 256 KiB, `content_digest` is the SHA-256 (hex) of the stored content, titles
 *   1..200 UTF-8 bytes;
 * - at most one `prd` and one `implementation_plan` linked per issue, and such an artifact is
 *   linked to one issue only; a link names exactly one target of its own organization;
 * - an issue or project with artifact links cannot be deleted (foreign keys without cascade:
 *   `artifact_links_issue_fk`, `artifact_links_project_fk`, checked at commit so that an
 *   organization delete, which removes the links too, passes; mapped to 409 `artifact_links_exist`).
 * - webhook destinations may subscribe to `artifact.created` and `artifact.revised`.
 */
export class Artifacts1765610000000 implements MigrationInterface {
  name = 'Artifacts1765610000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE artifacts (
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        id uuid NOT NULL,
        type text NOT NULL CHECK (type IN ('prd', 'implementation_plan', 'test_plan', 'decision', 'research', 'release_checklist')),
        title text NOT NULL CHECK (octet_length(title) BETWEEN 1 AND 200 AND length(btrim(title)) > 0),
        current_revision_id uuid NOT NULL,
        current_revision_number integer NOT NULL CHECK (current_revision_number >= 1),
        created_by_member_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id),
        CONSTRAINT artifacts_type_uq UNIQUE (org_id, id, type),
        CONSTRAINT artifacts_created_by_fk FOREIGN KEY (org_id, created_by_member_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED
      );
      CREATE INDEX artifacts_list_idx ON artifacts (org_id, updated_at DESC, id DESC);

      CREATE TABLE artifact_revisions (
        org_id uuid NOT NULL,
        id uuid NOT NULL,
        artifact_id uuid NOT NULL,
        revision_number integer NOT NULL CHECK (revision_number >= 1),
        previous_revision_number integer GENERATED ALWAYS AS (NULLIF(revision_number - 1, 0)) STORED,
        title_snapshot text NOT NULL CHECK (octet_length(title_snapshot) BETWEEN 1 AND 200),
        content text NOT NULL CHECK (octet_length(content) <= 262144),
        content_format text NOT NULL CHECK (content_format IN ('markdown', 'html')),
        content_digest text NOT NULL,
        -- source provenance: an immutable pointer snapshot of an external-reference link (never fetched)
        source_link_id uuid,
        source_external_reference_id uuid,
        source_target_type text CHECK (source_target_type IN ('issue', 'project')),
        source_target_id uuid,
        source_canonical_url text CHECK (octet_length(source_canonical_url) <= 2048 AND source_canonical_url ~ '^https?://'),
        source_provider text CHECK (octet_length(source_provider) <= 64),
        source_object_type text CHECK (octet_length(source_object_type) <= 64),
        source_provenance text CHECK (octet_length(source_provenance) <= 64),
        source_label text CHECK (length(source_label) <= 240 AND octet_length(source_label) <= 960),
        created_by_member_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id),
        CONSTRAINT artifact_revisions_artifact_fk FOREIGN KEY (org_id, artifact_id) REFERENCES artifacts(org_id, id) ON DELETE CASCADE,
        CONSTRAINT artifact_revisions_number_uq UNIQUE (org_id, artifact_id, revision_number),
        CONSTRAINT artifact_revisions_previous_fk FOREIGN KEY (org_id, artifact_id, previous_revision_number)
          REFERENCES artifact_revisions(org_id, artifact_id, revision_number),
        CONSTRAINT artifact_revisions_pointer_uq UNIQUE (org_id, artifact_id, id, revision_number, title_snapshot),
        CONSTRAINT artifact_revisions_digest_ck CHECK (content_digest = encode(sha256(convert_to(content, 'UTF8')), 'hex')),
        CONSTRAINT artifact_revisions_source_ck CHECK (
          (source_link_id IS NULL) = (source_external_reference_id IS NULL)
          AND (source_link_id IS NULL) = (source_target_type IS NULL)
          AND (source_link_id IS NULL) = (source_target_id IS NULL)
          AND (source_link_id IS NULL) = (source_canonical_url IS NULL)
          AND (source_link_id IS NULL) = (source_provider IS NULL)
          AND (source_link_id IS NULL) = (source_object_type IS NULL)
          AND (source_link_id IS NULL) = (source_provenance IS NULL)
          AND (source_link_id IS NOT NULL OR source_label IS NULL)
        ),
        CONSTRAINT artifact_revisions_created_by_fk FOREIGN KEY (org_id, created_by_member_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED
      );

      ALTER TABLE artifacts ADD CONSTRAINT artifacts_current_revision_fk
        FOREIGN KEY (org_id, id, current_revision_id, current_revision_number, title)
        REFERENCES artifact_revisions(org_id, artifact_id, id, revision_number, title_snapshot) DEFERRABLE INITIALLY DEFERRED;

      CREATE FUNCTION artifact_revisions_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'UPDATE' OR EXISTS (SELECT 1 FROM artifacts a WHERE a.org_id = OLD.org_id AND a.id = OLD.artifact_id) THEN
          RAISE EXCEPTION 'artifact revisions are immutable' USING ERRCODE = '23514', CONSTRAINT = 'artifact_revisions_immutable';
        END IF;
        RETURN OLD;
      END $$;
      CREATE TRIGGER artifact_revisions_immutable BEFORE UPDATE OR DELETE ON artifact_revisions
        FOR EACH ROW EXECUTE FUNCTION artifact_revisions_immutable();

      CREATE FUNCTION artifacts_pointer_forward() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.type <> OLD.type OR NEW.created_by_member_id IS DISTINCT FROM OLD.created_by_member_id OR NEW.created_at <> OLD.created_at
           OR (NEW.current_revision_id = OLD.current_revision_id AND NEW.current_revision_number <> OLD.current_revision_number)
           OR (NEW.current_revision_id <> OLD.current_revision_id AND NEW.current_revision_number <> OLD.current_revision_number + 1) THEN
          RAISE EXCEPTION 'an artifact keeps its type and provenance, and its current revision only moves to the next number'
            USING ERRCODE = '23514', CONSTRAINT = 'artifacts_pointer_forward';
        END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER artifacts_pointer_forward BEFORE UPDATE ON artifacts FOR EACH ROW EXECUTE FUNCTION artifacts_pointer_forward();

      CREATE TABLE artifact_links (
        org_id uuid NOT NULL,
        id uuid NOT NULL,
        artifact_id uuid NOT NULL,
        artifact_type text NOT NULL,
        target_type text NOT NULL CHECK (target_type IN ('issue', 'project')),
        issue_id uuid,
        project_id uuid,
        created_by_member_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id),
        CONSTRAINT artifact_links_artifact_fk FOREIGN KEY (org_id, artifact_id, artifact_type) REFERENCES artifacts(org_id, id, type) ON DELETE CASCADE,
        CONSTRAINT artifact_links_issue_fk FOREIGN KEY (org_id, issue_id) REFERENCES issues(org_id, id) DEFERRABLE INITIALLY DEFERRED,
        CONSTRAINT artifact_links_project_fk FOREIGN KEY (org_id, project_id) REFERENCES projects(org_id, id) DEFERRABLE INITIALLY DEFERRED,
        CONSTRAINT artifact_links_target_ck CHECK ((target_type = 'issue') = (issue_id IS NOT NULL) AND (target_type = 'project') = (project_id IS NOT NULL)),
        CONSTRAINT artifact_links_created_by_fk FOREIGN KEY (org_id, created_by_member_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED
      );
      CREATE UNIQUE INDEX artifact_links_issue_uq ON artifact_links (org_id, artifact_id, issue_id) WHERE issue_id IS NOT NULL;
      CREATE UNIQUE INDEX artifact_links_project_uq ON artifact_links (org_id, artifact_id, project_id) WHERE project_id IS NOT NULL;
      CREATE UNIQUE INDEX artifact_links_issue_slot_uq ON artifact_links (org_id, issue_id, artifact_type)
        WHERE issue_id IS NOT NULL AND artifact_type IN ('prd', 'implementation_plan');
      CREATE UNIQUE INDEX artifact_links_one_issue_uq ON artifact_links (org_id, artifact_id)
        WHERE issue_id IS NOT NULL AND artifact_type IN ('prd', 'implementation_plan');
      CREATE INDEX artifact_links_issue_idx ON artifact_links (org_id, issue_id) WHERE issue_id IS NOT NULL;
      CREATE INDEX artifact_links_project_idx ON artifact_links (org_id, project_id) WHERE project_id IS NOT NULL;

      ALTER TABLE webhooks DROP CONSTRAINT webhooks_events_check;
      ALTER TABLE webhooks ADD CONSTRAINT webhooks_events_check
        CHECK (events <@ ARRAY['issue.created', 'issue.updated', 'artifact.created', 'artifact.revised']::text[]);
      ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_event_check;
      ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_event_check
        CHECK (event IN ('issue.created', 'issue.updated', 'artifact.created', 'artifact.revised', 'ping', 'automation.action'));
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DELETE FROM webhook_deliveries WHERE event IN ('artifact.created', 'artifact.revised');
      UPDATE webhooks SET events = array_remove(array_remove(events, 'artifact.created'), 'artifact.revised');
      ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_event_check;
      ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_event_check
        CHECK (event IN ('issue.created', 'issue.updated', 'ping', 'automation.action'));
      ALTER TABLE webhooks DROP CONSTRAINT webhooks_events_check;
      ALTER TABLE webhooks ADD CONSTRAINT webhooks_events_check CHECK (events <@ ARRAY['issue.created', 'issue.updated']::text[]);
      DROP TABLE IF EXISTS artifact_links;
      ALTER TABLE artifacts DROP CONSTRAINT IF EXISTS artifacts_current_revision_fk;
      DROP TRIGGER IF EXISTS artifact_revisions_immutable ON artifact_revisions;
      DROP TABLE IF EXISTS artifact_revisions;
      DROP TABLE IF EXISTS artifacts;
      DROP FUNCTION IF EXISTS artifact_revisions_immutable();
      DROP FUNCTION IF EXISTS artifacts_pointer_forward();
    `);
  }
}
