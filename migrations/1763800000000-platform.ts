import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Platform schema: accounts, sessions, organizations, members (humans and agents), API keys,
 * projects with their board columns, board views and custom views, project access, teams,
 * labels, and the core of the issues table (extended by later migrations).
 *
 * Scale-out rule (ARCHITECTURE.md): every tenant table carries org_id, and every primary key,
 * unique constraint and foreign key between tenant tables includes it. Global tables (users,
 * sessions) stay small.
 */
export class Platform1763800000000 implements MigrationInterface {
  name = 'Platform1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email text NOT NULL CHECK (length(email) BETWEEN 3 AND 320),
        password_hash text NOT NULL,
        display_name text NOT NULL CHECK (length(display_name) BETWEEN 1 AND 200),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX users_email_uq ON users (lower(email));

      CREATE TABLE sessions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        token_hash bytea NOT NULL,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_seen_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      );
      CREATE UNIQUE INDEX sessions_token_hash_uq ON sessions (token_hash);
      CREATE INDEX sessions_user_idx ON sessions (user_id);
      CREATE INDEX sessions_expires_idx ON sessions (expires_at);

      CREATE TABLE organizations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL CHECK (length(btrim(name)) BETWEEN 1 AND 200),
        issue_prefix text NOT NULL CHECK (issue_prefix ~ '^[A-Z][A-Z0-9]{1,9}$'),
        plan text NOT NULL CHECK (plan IN ('unlimited', 'free')),
        issue_seq integer NOT NULL DEFAULT 0 CHECK (issue_seq >= 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );

      -- Provenance references to members (creator, personal owner) are checked at commit: an
      -- organization delete cascades through members and the rows that name them in one statement.
      CREATE TABLE members (
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        type text NOT NULL CHECK (type IN ('human', 'agent')),
        user_id uuid REFERENCES users(id) ON DELETE CASCADE,
        role text NOT NULL CHECK (role IN ('owner', 'admin', 'member', 'guest')),
        display_name text NOT NULL CHECK (length(btrim(display_name)) BETWEEN 1 AND 200),
        avatar_url text,
        agent_scope text CHECK (agent_scope IN ('organization', 'project', 'personal')),
        owner_member_id uuid,
        created_by_member_id uuid,
        removed_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id),
        CONSTRAINT members_owner_fk FOREIGN KEY (org_id, owner_member_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED,
        CONSTRAINT members_created_by_fk FOREIGN KEY (org_id, created_by_member_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED,
        CONSTRAINT members_human_has_user CHECK ((type = 'human') = (user_id IS NOT NULL)),
        CONSTRAINT members_agent_has_scope CHECK ((type = 'agent') = (agent_scope IS NOT NULL)),
        CONSTRAINT members_personal_has_owner CHECK (agent_scope IS DISTINCT FROM 'personal' OR owner_member_id IS NOT NULL),
        CONSTRAINT members_project_agent_is_guest CHECK (agent_scope IS DISTINCT FROM 'project' OR role = 'guest'),
        CONSTRAINT members_agent_not_owner CHECK (type = 'human' OR role <> 'owner')
      );
      CREATE UNIQUE INDEX members_org_user_uq ON members (org_id, user_id) WHERE user_id IS NOT NULL;
      CREATE INDEX members_user_idx ON members (user_id) WHERE removed_at IS NULL;
      CREATE INDEX members_directory_idx ON members (org_id, lower(display_name), id) WHERE removed_at IS NULL;

      -- An organization always keeps an active owner. The application serializes member changes
      -- per organization (row lock); this deferred trigger is the database backstop.
      CREATE FUNCTION members_keep_an_owner() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF OLD.role = 'owner' AND OLD.removed_at IS NULL
           AND EXISTS (SELECT 1 FROM organizations o WHERE o.id = OLD.org_id)
           AND NOT EXISTS (SELECT 1 FROM members m WHERE m.org_id = OLD.org_id AND m.role = 'owner' AND m.removed_at IS NULL) THEN
          RAISE EXCEPTION 'organization must keep an owner' USING ERRCODE = '23514', CONSTRAINT = 'members_last_owner';
        END IF;
        RETURN NULL;
      END $$;
      CREATE CONSTRAINT TRIGGER members_last_owner AFTER UPDATE OR DELETE ON members
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION members_keep_an_owner();

      CREATE TABLE api_keys (
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        member_id uuid NOT NULL,
        key_hash bytea NOT NULL CHECK (octet_length(key_hash) = 32),
        key_prefix text NOT NULL,
        created_by_member_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz,
        revoked_at timestamptz,
        PRIMARY KEY (org_id, id),
        CONSTRAINT api_keys_member_fk FOREIGN KEY (org_id, member_id) REFERENCES members(org_id, id) ON DELETE CASCADE,
        CONSTRAINT api_keys_created_by_fk FOREIGN KEY (org_id, created_by_member_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED
      );
      CREATE UNIQUE INDEX api_keys_hash_uq ON api_keys (key_hash);
      CREATE INDEX api_keys_member_idx ON api_keys (org_id, member_id);

      CREATE TABLE projects (
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        name text NOT NULL CHECK (length(btrim(name)) BETWEEN 1 AND 200),
        key text NOT NULL CHECK (key ~ '^[A-Z][A-Z0-9]{1,9}$'),
        slug text NOT NULL CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
        description text CHECK (length(description) <= 20000),
        color text CHECK (color ~ '^#[0-9a-fA-F]{6}$'),
        icon text CHECK (length(icon) <= 64),
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'archived')),
        issue_seq integer NOT NULL DEFAULT 0 CHECK (issue_seq >= 0),
        created_by_member_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id),
        CONSTRAINT projects_created_by_fk FOREIGN KEY (org_id, created_by_member_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED
      );
      CREATE UNIQUE INDEX projects_key_uq ON projects (org_id, key);
      CREATE UNIQUE INDEX projects_slug_uq ON projects (org_id, slug);

      CREATE TABLE board_columns (
        org_id uuid NOT NULL,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        project_id uuid NOT NULL,
        key text NOT NULL CHECK (key ~ '^[a-z][a-z0-9_]{0,49}$' AND key <> 'cancelled'),
        label text NOT NULL CHECK (length(btrim(label)) BETWEEN 1 AND 100),
        description text CHECK (length(description) <= 5000),
        color text CHECK (color ~ '^#[0-9a-fA-F]{6}$'),
        position integer NOT NULL CHECK (position >= 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id),
        CONSTRAINT board_columns_project_fk FOREIGN KEY (org_id, project_id) REFERENCES projects(org_id, id) ON DELETE CASCADE,
        CONSTRAINT board_columns_key_uq UNIQUE (org_id, project_id, key),
        CONSTRAINT board_columns_position_uq UNIQUE (org_id, project_id, position) DEFERRABLE INITIALLY DEFERRED
      );

      CREATE TABLE board_views (
        org_id uuid NOT NULL,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        project_id uuid NOT NULL,
        name text NOT NULL CHECK (length(btrim(name)) BETWEEN 1 AND 100),
        is_default boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id),
        CONSTRAINT board_views_project_fk FOREIGN KEY (org_id, project_id) REFERENCES projects(org_id, id) ON DELETE CASCADE
      );
      CREATE UNIQUE INDEX board_views_one_default_uq ON board_views (org_id, project_id) WHERE is_default;
      CREATE INDEX board_views_project_idx ON board_views (org_id, project_id);

      CREATE TABLE board_view_columns (
        org_id uuid NOT NULL,
        view_id uuid NOT NULL,
        column_id uuid NOT NULL,
        position integer NOT NULL CHECK (position >= 0),
        PRIMARY KEY (org_id, view_id, column_id),
        CONSTRAINT board_view_columns_view_fk FOREIGN KEY (org_id, view_id) REFERENCES board_views(org_id, id) ON DELETE CASCADE,
        CONSTRAINT board_view_columns_column_fk FOREIGN KEY (org_id, column_id) REFERENCES board_columns(org_id, id) ON DELETE CASCADE
      );
      CREATE INDEX board_view_columns_column_idx ON board_view_columns (org_id, column_id);

      CREATE TABLE custom_views (
        org_id uuid NOT NULL,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        project_id uuid NOT NULL,
        name text NOT NULL CHECK (length(btrim(name)) BETWEEN 1 AND 100),
        filters jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(filters) = 'object'),
        sort jsonb CHECK (sort IS NULL OR jsonb_typeof(sort) = 'object'),
        display_mode text NOT NULL DEFAULT 'list' CHECK (display_mode IN ('list', 'board', 'table')),
        color text CHECK (color ~ '^#[0-9a-fA-F]{6}$'),
        icon text CHECK (length(icon) <= 64),
        is_default boolean NOT NULL DEFAULT false,
        created_by_member_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id),
        CONSTRAINT custom_views_project_fk FOREIGN KEY (org_id, project_id) REFERENCES projects(org_id, id) ON DELETE CASCADE,
        CONSTRAINT custom_views_created_by_fk FOREIGN KEY (org_id, created_by_member_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED
      );
      CREATE INDEX custom_views_project_idx ON custom_views (org_id, project_id);

      CREATE TABLE project_members (
        org_id uuid NOT NULL,
        project_id uuid NOT NULL,
        member_id uuid NOT NULL,
        access_level text NOT NULL CHECK (access_level IN ('view', 'edit', 'admin')),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, project_id, member_id),
        CONSTRAINT project_members_project_fk FOREIGN KEY (org_id, project_id) REFERENCES projects(org_id, id) ON DELETE CASCADE,
        CONSTRAINT project_members_member_fk FOREIGN KEY (org_id, member_id) REFERENCES members(org_id, id) ON DELETE CASCADE
      );
      CREATE INDEX project_members_member_idx ON project_members (org_id, member_id);

      CREATE TABLE teams (
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        name text NOT NULL CHECK (length(btrim(name)) BETWEEN 1 AND 100),
        slug text NOT NULL CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
        description text CHECK (length(description) <= 5000),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id)
      );
      CREATE UNIQUE INDEX teams_slug_uq ON teams (org_id, slug);

      CREATE TABLE team_members (
        org_id uuid NOT NULL,
        team_id uuid NOT NULL,
        member_id uuid NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, team_id, member_id),
        CONSTRAINT team_members_team_fk FOREIGN KEY (org_id, team_id) REFERENCES teams(org_id, id) ON DELETE CASCADE,
        CONSTRAINT team_members_member_fk FOREIGN KEY (org_id, member_id) REFERENCES members(org_id, id) ON DELETE CASCADE
      );
      CREATE INDEX team_members_member_idx ON team_members (org_id, member_id);

      CREATE TABLE project_teams (
        org_id uuid NOT NULL,
        project_id uuid NOT NULL,
        team_id uuid NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, project_id, team_id),
        CONSTRAINT project_teams_project_fk FOREIGN KEY (org_id, project_id) REFERENCES projects(org_id, id) ON DELETE CASCADE,
        CONSTRAINT project_teams_team_fk FOREIGN KEY (org_id, team_id) REFERENCES teams(org_id, id) ON DELETE CASCADE
      );
      CREATE INDEX project_teams_team_idx ON project_teams (org_id, team_id);

      CREATE TABLE labels (
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        name text NOT NULL CHECK (length(btrim(name)) BETWEEN 1 AND 100),
        color text CHECK (color ~ '^#[0-9a-fA-F]{6}$'),
        description text CHECK (length(description) <= 5000),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id)
      );
      CREATE UNIQUE INDEX labels_name_uq ON labels (org_id, lower(name));

      -- Core of the issues table: what the platform needs (plan usage, board column
      -- reassignment). The work-tracking migration extends it.
      CREATE TABLE issues (
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        project_id uuid,
        number integer NOT NULL CHECK (number > 0),
        title text NOT NULL CHECK (length(btrim(title)) BETWEEN 1 AND 500),
        description text,
        status text NOT NULL CHECK (status ~ '^[a-z][a-z0-9_]{0,49}$'),
        priority smallint NOT NULL DEFAULT 2 CHECK (priority BETWEEN 0 AND 3),
        created_by_member_id uuid,
        archived_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id),
        CONSTRAINT issues_project_fk FOREIGN KEY (org_id, project_id) REFERENCES projects(org_id, id) ON DELETE CASCADE,
        CONSTRAINT issues_created_by_fk FOREIGN KEY (org_id, created_by_member_id) REFERENCES members(org_id, id) DEFERRABLE INITIALLY DEFERRED
      );
      CREATE UNIQUE INDEX issues_project_number_uq ON issues (org_id, project_id, number) WHERE project_id IS NOT NULL;
      CREATE UNIQUE INDEX issues_org_number_uq ON issues (org_id, number) WHERE project_id IS NULL;
      CREATE INDEX issues_project_status_idx ON issues (org_id, project_id, status);
      CREATE INDEX issues_active_idx ON issues (org_id) WHERE archived_at IS NULL AND status NOT IN ('done', 'cancelled');
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE IF EXISTS issues, labels, project_teams, team_members, teams, project_members, custom_views,
        board_view_columns, board_views, board_columns, projects, api_keys, members, organizations, sessions, users CASCADE;
      DROP FUNCTION IF EXISTS members_keep_an_owner();
    `);
  }
}
