import type { MigrationInterface, QueryRunner } from 'typeorm';

/** What is bumped for a project's issues ('project') and for a member's attention ('member'). */
const TRIGGERS: Array<{ kind: 'project' | 'member'; table: string; insDel: boolean | 'DELETE'; when: string; of?: string }> = [
  // the heartbeat's work of a visibility: its projects' issues, the projects, their columns, assignments
  { kind: 'project', table: 'issues', insDel: true, when: 'OLD.* IS DISTINCT FROM NEW.*' },
  { kind: 'project', table: 'projects', insDel: true, when: 'OLD.* IS DISTINCT FROM NEW.*' },
  { kind: 'project', table: 'board_columns', insDel: true, when: 'OLD.* IS DISTINCT FROM NEW.*' },
  { kind: 'project', table: 'issue_assignees', insDel: true, when: 'OLD.* IS DISTINCT FROM NEW.*' },
  // and what it shows of other projects: dependencies, direct initiative links (by milestone: 'strategy', below)
  { kind: 'project', table: 'issue_dependencies', insDel: true, when: 'OLD.* IS DISTINCT FROM NEW.*' },
  { kind: 'project', table: 'initiative_issues', insDel: true, when: 'OLD.* IS DISTINCT FROM NEW.*' },
  // a member's attention: its notifications and attention requests, visible by their issue's current project
  { kind: 'member', table: 'notifications', insDel: true, when: 'OLD.* IS DISTINCT FROM NEW.*' },
  { kind: 'member', table: 'comments', insDel: false, when: 'OLD.deleted_at IS DISTINCT FROM NEW.deleted_at' },
  { kind: 'member', table: 'attention_items', insDel: true, when: 'OLD.* IS DISTINCT FROM NEW.*' },
  { kind: 'member', table: 'agent_executions', insDel: true, when: 'OLD.issue_id IS DISTINCT FROM NEW.issue_id' },
  // a new issue has no notification or execution yet
  { kind: 'member', table: 'issues', insDel: 'DELETE', when: 'OLD.project_id IS DISTINCT FROM NEW.project_id', of: 'project_id' },
];

/** The 'heartbeat' version triggers (migration 1765650000000) that the member versions replace, as that migration made them. */
const HEARTBEAT_ATTENTION_TRIGGERS: Array<{ table: string; insDel: boolean; when: string }> = [
  { table: 'notifications', insDel: true, when: 'OLD.* IS DISTINCT FROM NEW.*' },
  { table: 'comments', insDel: false, when: 'OLD.deleted_at IS DISTINCT FROM NEW.deleted_at' },
  { table: 'attention_items', insDel: true, when: 'OLD.* IS DISTINCT FROM NEW.*' },
  { table: 'agent_executions', insDel: true, when: 'OLD.issue_id IS DISTINCT FROM NEW.issue_id' },
];

/**
 * Versions by subject (read models HEARTBEAT, HEARTBEAT_CONTEXT, HEARTBEAT_OFF_TRACK and
 * HEARTBEAT_ATTENTION in src/common/cache/read-models.ts): an agent's kept heartbeat is trusted
 * at the version of the projects it reads and of its own attention, not of the whole organization,
 * so a write in a project it cannot read, or a notification to someone else, keeps it.
 *
 * - kind 'project', subject a project id (the nil UUID for projectless issues): bumped by a
 *   change of an issue (its old and new project, and the project of its old and new milestone),
 *   of a project, of a board column, of an assignment (the issue's project). A visibility also
 *   shows of other projects' issues only what stands beside its own: whether a blocker of one of
 *   its issues still blocks (the blocker's status and archive mark, its project's release and
 *   status columns; the blocker's own fields only when its project is readable, hence versioned by
 *   that project) and the initiatives its readable issues are linked to. So a change of an issue
 *   also bumps the projects of the issues it blocks, a board column those of the issues blocked by
 *   its project's issues, a dependency both ends, and an initiative link its issue's project. The organization-wide work (read model heartbeat-work)
 *   keeps its 'heartbeat_work' version (migration 1765770000000); a visibility's kept context is
 *   trusted at its projects' versions alone.
 * - initiative_milestones bumps 'strategy' (new here): an initiative shows how many milestones it
 *   has, whichever projects they are in, and a link reaches every issue of the milestone.
 * - kind 'member', subject a member id: bumped by that member's notifications and attention
 *   requests, by the deletion mark of a comment its notifications point at, by an execution
 *   whose issue changes (the requesters of its attention items) and by an issue moved to another
 *   project (the recipients of its notifications, the requesters of attention on it). A deleted
 *   issue deletes its notifications and executions (ON DELETE CASCADE), which bumps.
 *   These replace the organization-wide 'heartbeat' triggers on those tables: 'heartbeat' keeps
 *   webhooks, saved policies and project status updates.
 *
 * Rows are striped (pg_backend_pid() % 8) and made on first bump; a version is the sum over the
 * subjects read and their stripes, plus the organization's epoch row (the max UUID), which
 * TRUNCATE bumps for every organization (no row trigger names the subjects then). Bumped at
 * COMMIT once per transaction and row (deferred constraint triggers, like data_versions).
 */
export class SubjectVersions1765790000000 implements MigrationInterface {
  name = 'SubjectVersions1765790000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE subject_versions (
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('project', 'member')),
        subject uuid NOT NULL,
        stripe smallint NOT NULL CHECK (stripe BETWEEN 0 AND 7),
        version bigint NOT NULL DEFAULT 0 CHECK (version >= 0),
        bumped_xid xid8,
        PRIMARY KEY (org_id, kind, subject, stripe)
      );

      -- one bump per subject, stripe and transaction; subjects in a fixed order (no lock cycles)
      CREATE FUNCTION subject_versions_add(o uuid, k text, subjects uuid[]) RETURNS void LANGUAGE sql AS $$
        INSERT INTO subject_versions AS s (org_id, kind, subject, stripe, version, bumped_xid)
        SELECT o, k, u.x, pg_backend_pid() % 8, 1, pg_current_xact_id()
          FROM (SELECT DISTINCT x FROM unnest(subjects) AS x WHERE x IS NOT NULL) u
         -- an organization deleted in this transaction (its rows went with it) keeps no versions
         WHERE EXISTS (SELECT 1 FROM organizations g WHERE g.id = o)
         ORDER BY u.x
        ON CONFLICT (org_id, kind, subject, stripe) DO UPDATE SET version = s.version + 1, bumped_xid = EXCLUDED.bumped_xid
         WHERE s.bumped_xid IS DISTINCT FROM EXCLUDED.bumped_xid;
      $$;

      -- the projects of the issues that issue blocks (a blocker shows beside them)
      CREATE FUNCTION subject_versions_blocked_by(o uuid, issue uuid) RETURNS uuid[] LANGUAGE sql STABLE AS $$
        SELECT ARRAY(SELECT coalesce(x.project_id, '00000000-0000-0000-0000-000000000000'::uuid)
                       FROM issue_dependencies d JOIN issues x ON x.org_id = d.org_id AND x.id = d.blocked_issue_id
                      WHERE d.org_id = o AND d.blocking_issue_id = issue);
      $$;

      CREATE FUNCTION subject_versions_bump() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        o uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.org_id ELSE NEW.org_id END;
        nil CONSTANT uuid := '00000000-0000-0000-0000-000000000000';
        s uuid[] := ARRAY[]::uuid[];
        r record;
      BEGIN
        FOREACH r IN ARRAY (CASE TG_OP WHEN 'INSERT' THEN ARRAY[NEW] WHEN 'DELETE' THEN ARRAY[OLD] ELSE ARRAY[OLD, NEW] END) LOOP
          IF TG_ARGV[0] = 'project' THEN
            IF TG_TABLE_NAME = 'issues' THEN
              s := s || coalesce(r.project_id, nil) || (SELECT m.project_id FROM milestones m WHERE m.org_id = o AND m.id = r.milestone_id);
            ELSIF TG_TABLE_NAME = 'projects' THEN
              s := s || r.id;
            ELSIF TG_TABLE_NAME = 'board_columns' THEN
              -- the release and status columns of the blockers in this project
              s := s || r.project_id || ARRAY(SELECT coalesce(x.project_id, nil) FROM issues b
                                                JOIN issue_dependencies d ON d.org_id = b.org_id AND d.blocking_issue_id = b.id
                                                JOIN issues x ON x.org_id = d.org_id AND x.id = d.blocked_issue_id
                                               WHERE b.org_id = o AND b.project_id = r.project_id);
            ELSIF TG_TABLE_NAME = 'issue_assignees' THEN
              s := s || (SELECT coalesce(i.project_id, nil) FROM issues i WHERE i.org_id = o AND i.id = r.issue_id);
            ELSIF TG_TABLE_NAME = 'issue_dependencies' THEN
              s := s || (SELECT coalesce(i.project_id, nil) FROM issues i WHERE i.org_id = o AND i.id = r.blocked_issue_id)
                     || (SELECT coalesce(i.project_id, nil) FROM issues i WHERE i.org_id = o AND i.id = r.blocking_issue_id);
            ELSIF TG_TABLE_NAME = 'initiative_issues' THEN
              s := s || (SELECT coalesce(i.project_id, nil) FROM issues i WHERE i.org_id = o AND i.id = r.issue_id);
            ELSE
              RAISE EXCEPTION 'subject_versions_bump(project) has no rule for %', TG_TABLE_NAME;
            END IF;
          ELSIF TG_TABLE_NAME = 'notifications' THEN
            s := s || r.recipient_member_id;
          ELSIF TG_TABLE_NAME = 'attention_items' THEN
            s := s || r.requester_member_id;
          ELSIF TG_TABLE_NAME = 'agent_executions' THEN
            s := s || ARRAY(SELECT a.requester_member_id FROM attention_items a WHERE a.org_id = o AND a.execution_id = r.id);
          ELSIF TG_TABLE_NAME = 'comments' THEN
            s := s || ARRAY(SELECT n.recipient_member_id FROM notifications n WHERE n.org_id = o AND n.comment_id = r.id);
          ELSIF TG_TABLE_NAME = 'issues' THEN
            s := s || ARRAY(SELECT n.recipient_member_id FROM notifications n WHERE n.org_id = o AND n.issue_id = r.id
                            UNION SELECT a.requester_member_id FROM agent_executions e
                                    JOIN attention_items a ON a.org_id = e.org_id AND a.execution_id = e.id
                                   WHERE e.org_id = o AND e.issue_id = r.id);
          ELSE
            RAISE EXCEPTION 'subject_versions_bump(member) has no rule for %', TG_TABLE_NAME;
          END IF;
        END LOOP;
        -- an issue shows beside the issues it blocks (its id never changes)
        IF TG_ARGV[0] = 'project' AND TG_TABLE_NAME = 'issues' THEN
          s := s || subject_versions_blocked_by(o, CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END);
        END IF;
        PERFORM subject_versions_add(o, TG_ARGV[0], s);
        RETURN NULL;
      END $$;

      -- TRUNCATE names no subject: every organization's epoch row of the kind
      CREATE FUNCTION subject_versions_bump_all() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO subject_versions AS s (org_id, kind, subject, stripe, version, bumped_xid)
        SELECT o.id, TG_ARGV[0], 'ffffffff-ffff-ffff-ffff-ffffffffffff', pg_backend_pid() % 8, 1, pg_current_xact_id() FROM organizations o
        ON CONFLICT (org_id, kind, subject, stripe) DO UPDATE SET version = s.version + 1, bumped_xid = EXCLUDED.bumped_xid
         WHERE s.bumped_xid IS DISTINCT FROM EXCLUDED.bumped_xid;
        RETURN NULL;
      END $$;
    `);
    for (const t of TRIGGERS) {
      const name = `subject_versions_${t.kind}`;
      await q.query(`
        ${t.insDel ? `CREATE CONSTRAINT TRIGGER ${name}_ins AFTER ${t.insDel === 'DELETE' ? 'DELETE' : 'INSERT OR DELETE'} ON ${t.table} DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION subject_versions_bump('${t.kind}');` : ''}
        CREATE CONSTRAINT TRIGGER ${name}_upd AFTER UPDATE${t.of ? ` OF ${t.of}` : ''} ON ${t.table}
          DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (${t.when}) EXECUTE FUNCTION subject_versions_bump('${t.kind}');
        CREATE TRIGGER ${name}_truncate AFTER TRUNCATE ON ${t.table} FOR EACH STATEMENT EXECUTE FUNCTION subject_versions_bump_all('${t.kind}');
      `);
    }
    await q.query(`
      CREATE CONSTRAINT TRIGGER data_versions_strategy_ins AFTER INSERT OR DELETE ON initiative_milestones
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION data_versions_bump('strategy');
      CREATE CONSTRAINT TRIGGER data_versions_strategy_upd AFTER UPDATE ON initiative_milestones
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION data_versions_bump('strategy');
      CREATE TRIGGER data_versions_strategy_truncate AFTER TRUNCATE ON initiative_milestones
        FOR EACH STATEMENT EXECUTE FUNCTION data_versions_bump_all('strategy');
    `);
    for (const { table } of HEARTBEAT_ATTENTION_TRIGGERS)
      await q.query(
        `DROP TRIGGER IF EXISTS data_versions_heartbeat_ins ON ${table}; DROP TRIGGER IF EXISTS data_versions_heartbeat_upd ON ${table}; DROP TRIGGER IF EXISTS data_versions_heartbeat_truncate ON ${table};`,
      );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of TRIGGERS) {
      const name = `subject_versions_${t.kind}`;
      await q.query(
        `DROP TRIGGER IF EXISTS ${name}_ins ON ${t.table}; DROP TRIGGER IF EXISTS ${name}_upd ON ${t.table}; DROP TRIGGER IF EXISTS ${name}_truncate ON ${t.table};`,
      );
    }
    await q.query(`
      DROP TRIGGER IF EXISTS data_versions_strategy_ins ON initiative_milestones;
      DROP TRIGGER IF EXISTS data_versions_strategy_upd ON initiative_milestones;
      DROP TRIGGER IF EXISTS data_versions_strategy_truncate ON initiative_milestones;
      DROP FUNCTION IF EXISTS subject_versions_bump(), subject_versions_bump_all(), subject_versions_add(uuid, text, uuid[]), subject_versions_blocked_by(uuid, uuid);
      DROP TABLE IF EXISTS subject_versions;
    `);
    for (const t of HEARTBEAT_ATTENTION_TRIGGERS)
      await q.query(`
        ${t.insDel ? `CREATE CONSTRAINT TRIGGER data_versions_heartbeat_ins AFTER INSERT OR DELETE ON ${t.table} DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION data_versions_bump('heartbeat');` : ''}
        CREATE CONSTRAINT TRIGGER data_versions_heartbeat_upd AFTER UPDATE ON ${t.table}
          DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (${t.when}) EXECUTE FUNCTION data_versions_bump('heartbeat');
        CREATE TRIGGER data_versions_heartbeat_truncate AFTER TRUNCATE ON ${t.table} FOR EACH STATEMENT EXECUTE FUNCTION data_versions_bump_all('heartbeat');
      `);
  }
}
