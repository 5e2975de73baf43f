import { Injectable } from '@nestjs/common';
import { Sql, type Tx } from '../../database/sql.service';

export const PROJECT_STATUSES = ['on_track', 'at_risk', 'off_track'] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];

/** A status update with its author's current name and type. */
export interface StatusUpdateRow {
  id: string;
  project_id: string;
  status: ProjectStatus;
  summary: string;
  author_member_id: string | null;
  author_display_name: string | null;
  author_type: 'human' | 'agent' | null;
  created_at: Date;
}

/** A readable project with its latest status update (all `u_*` null when it has none). */
export interface ProjectHealthRow {
  project_id: string;
  project_name: string;
  project_key: string;
  u_id: string | null;
  u_status: ProjectStatus | null;
  u_summary: string | null;
  u_author_member_id: string | null;
  u_author_display_name: string | null;
  u_author_type: 'human' | 'agent' | null;
  u_created_at: Date | null;
}

const COLUMNS = `u.id, u.project_id, u.status, u.summary, u.author_member_id, am.display_name AS author_display_name, am.type AS author_type, u.created_at`;
const AUTHOR_JOIN = 'LEFT JOIN members am ON am.org_id = u.org_id AND am.id = u.author_member_id';

/** Project status updates (table `project_status_updates`). */
@Injectable()
export class ProjectStatusRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * In m's transaction: serializes the status updates of one project (an advisory lock: issue
   * writers of the project are not held up) and answers the project's key and name with its latest
   * status, or undefined when the project is gone.
   */
  async lockProject(orgId: string, projectId: string, m: Tx): Promise<{ key: string; name: string; latest: ProjectStatus | null } | undefined> {
    await this.sql.run(`SELECT pg_advisory_xact_lock(hashtextextended('project-status:' || $1::text || ':' || $2::text, 0))`, [orgId, projectId], m);
    return this.sql.row(
      `SELECT p.key, p.name,
              (SELECT u.status FROM project_status_updates u WHERE u.org_id = p.org_id AND u.project_id = p.id ORDER BY u.created_at DESC, u.id DESC LIMIT 1) AS latest
         FROM projects p WHERE p.org_id = $1 AND p.id = $2`,
      [orgId, projectId],
      m,
    );
  }

  async insert(
    orgId: string,
    u: { id: string; project_id: string; status: ProjectStatus; summary: string; author_member_id: string | null; created_at: Date },
    m: Tx,
  ): Promise<void> {
    await this.sql.run(
      `INSERT INTO project_status_updates (org_id, id, project_id, status, summary, author_member_id, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [orgId, u.id, u.project_id, u.status, u.summary, u.author_member_id, u.created_at],
      m,
    );
  }

  /** One page of a project's updates, newest first, with the total. */
  async page(orgId: string, projectId: string, limit: number, offset: number): Promise<{ rows: StatusUpdateRow[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.sql.rows<StatusUpdateRow>(
        `SELECT ${COLUMNS} FROM project_status_updates u ${AUTHOR_JOIN}
          WHERE u.org_id = $1 AND u.project_id = $2 ORDER BY u.created_at DESC, u.id DESC LIMIT $3 OFFSET $4`,
        [orgId, projectId, limit, offset],
      ),
      this.sql.row<{ n: number }>('SELECT count(*)::int AS n FROM project_status_updates WHERE org_id = $1 AND project_id = $2', [orgId, projectId]),
    ]);
    return { rows, total: count!.n };
  }

  /** Every project in scope (all, or these ids) by name, with its latest update. */
  health(orgId: string, projects: 'all' | string[]): Promise<ProjectHealthRow[]> {
    return this.sql.rows<ProjectHealthRow>(
      `SELECT p.id AS project_id, p.name AS project_name, p.key AS project_key,
              u.id AS u_id, u.status AS u_status, u.summary AS u_summary, u.author_member_id AS u_author_member_id,
              am.display_name AS u_author_display_name, am.type AS u_author_type, u.created_at AS u_created_at
         FROM projects p
         LEFT JOIN LATERAL (SELECT org_id, id, status, summary, author_member_id, created_at FROM project_status_updates u
                             WHERE u.org_id = p.org_id AND u.project_id = p.id ORDER BY u.created_at DESC, u.id DESC LIMIT 1) u ON true
         ${AUTHOR_JOIN}
        WHERE p.org_id = $1 AND ($2::boolean OR p.id = ANY($3::uuid[]))
        ORDER BY lower(p.name), p.id`,
      [orgId, projects === 'all', projects === 'all' ? [] : projects],
    );
  }

  /** Projects among `projectIds` whose latest status is `off_track`, with that update (heartbeat signals). */
  offTrack(orgId: string, projectIds: 'all' | string[]): Promise<ProjectHealthRow[]> {
    return this.sql.rows<ProjectHealthRow>(
      `SELECT * FROM (
         SELECT DISTINCT ON (u.project_id) p.id AS project_id, p.name AS project_name, p.key AS project_key,
                u.id AS u_id, u.status AS u_status, u.summary AS u_summary, u.author_member_id AS u_author_member_id,
                NULL::text AS u_author_display_name, NULL::text AS u_author_type, u.created_at AS u_created_at
           FROM project_status_updates u JOIN projects p ON p.org_id = u.org_id AND p.id = u.project_id
          WHERE u.org_id = $1 AND ($2::boolean OR u.project_id = ANY($3::uuid[]))
          ORDER BY u.project_id, u.created_at DESC, u.id DESC) latest
        WHERE latest.u_status = 'off_track'`,
      [orgId, projectIds === 'all', projectIds === 'all' ? [] : projectIds],
    );
  }
}
