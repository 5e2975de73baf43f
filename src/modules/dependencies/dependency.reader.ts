import type { EntityManager } from 'typeorm';
import type { AccessPolicyService } from '../../common/access/access-policy.service';
import type { Actor } from '../../common/auth/principal';
import { Errors } from '../../common/errors/domain-error';
import { isUuid } from '../../common/http/validation';

/** The public projection of an issue inside dependency responses. */
export interface IssueProjection {
  id: string;
  number: number;
  identifier: string | null;
  projectSlug: string | null;
  title: string;
  status: string;
}

export interface ReleaseColumnProjection {
  id: string;
  key: string;
  label: string;
  position: number;
}

/** Issue columns selected with the `projects` join (`p`) for projections. */
export const ISSUE_PROJECTION_SQL = (i: string, p: string): string =>
  `${i}.id, ${i}.number, ${i}.title, ${i}.status, ${i}.project_id, ${i}.archived_at, ${p}.key AS project_key, ${p}.slug AS project_slug`;

export const toIssueProjection = (r: Record<string, any>, prefix = ''): IssueProjection => {
  const key = r[`${prefix}project_key`] as string | null;
  return {
    id: r[`${prefix}id`],
    number: Number(r[`${prefix}number`]),
    identifier: key ? `${key}-${r[`${prefix}number`]}` : null,
    projectSlug: (r[`${prefix}project_slug`] as string | null) ?? null,
    title: r[`${prefix}title`],
    status: r[`${prefix}status`],
  };
};

/**
 * Decides, for many issues at once, whether the caller can read them: one policy lookup per
 * distinct project (the policy caches the caller's access for the request).
 */
export class ReadableIssues {
  private readonly byProject = new Map<string, Promise<boolean>>();

  constructor(
    private readonly access: AccessPolicyService,
    private readonly actor: Actor,
  ) {}

  canRead(projectId: string | null): Promise<boolean> {
    const key = projectId ?? '';
    let p = this.byProject.get(key);
    if (!p) {
      p = this.access.issueLevel(this.actor, projectId).then((l) => !!l);
      this.byProject.set(key, p);
    }
    return p;
  }
}

/**
 * Release column for a dependency whose blocking issue is in `projectId`: the given column (400
 * unless it is a column of that project), else the project's `done` column, else its last column.
 */
export async function resolveReleaseColumn(m: EntityManager, orgId: string, projectId: string, requested: string | undefined): Promise<string | null> {
  if (requested !== undefined) {
    const rows: unknown[] = await m.query('SELECT 1 FROM board_columns WHERE org_id = $1 AND project_id = $2 AND id = $3', [orgId, projectId, requested]);
    if (!rows.length) throw Errors.validation("releaseColumnId must be a board column of the blocking issue's project");
    return requested;
  }
  const rows: Array<{ id: string }> = await m.query(
    `SELECT id FROM board_columns WHERE org_id = $1 AND project_id = $2 ORDER BY (key = 'done') DESC, position DESC LIMIT 1`,
    [orgId, projectId],
  );
  return rows[0]?.id ?? null;
}

/** A release column id from the request body (camelCase or snake_case); undefined when absent. */
export function readReleaseColumnId(body: Record<string, unknown>, required: boolean): string | undefined {
  const a = body.releaseColumnId;
  const b = body.release_column_id;
  if (a !== undefined && b !== undefined && a !== b) throw Errors.validation('releaseColumnId and release_column_id disagree; send one of them');
  const v = a ?? b;
  if (v === undefined || v === null) {
    if (required) throw Errors.validation('releaseColumnId (or release_column_id) is required');
    return undefined;
  }
  if (!isUuid(v)) throw Errors.validation('releaseColumnId must be a UUID');
  return v.toLowerCase();
}

export const isPgUnique = (e: unknown, constraint?: string): boolean => {
  const d = (e as { driverError?: { code?: string; constraint?: string } })?.driverError ?? (e as { code?: string; constraint?: string });
  return d?.code === '23505' && (!constraint || d.constraint === constraint);
};

/**
 * Dependencies of issue `rootId` (both sides), seen from it: `o_*` columns are the other issue,
 * `blocker_project_id` the blocking issue's project, `satisfied` per DependencyRules.
 */
export async function loadDependencyRows(
  m: EntityManager,
  satisfiedSql: string,
  orgId: string,
  rootId: string,
  dependencyId?: string,
): Promise<Array<Record<string, any>>> {
  return m.query(
    `SELECT d.id, d.created_at, d.blocking_issue_id, d.blocked_issue_id, d.release_column_id,
            rc.key AS rc_key, rc.label AS rc_label, rc.position AS rc_position,
            ${satisfiedSql} AS satisfied, b.project_id AS blocker_project_id,
            o.id AS o_id, o.number AS o_number, o.title AS o_title, o.status AS o_status, o.project_id AS o_project_id,
            op.key AS o_project_key, op.slug AS o_project_slug
       FROM issue_dependencies d
       JOIN issues b ON b.org_id = d.org_id AND b.id = d.blocking_issue_id
       JOIN issues o ON o.org_id = d.org_id AND o.id = CASE WHEN d.blocked_issue_id = $2 THEN d.blocking_issue_id ELSE d.blocked_issue_id END
       LEFT JOIN projects op ON op.org_id = o.org_id AND op.id = o.project_id
       LEFT JOIN board_columns rc ON rc.org_id = d.org_id AND rc.id = d.release_column_id AND rc.project_id = b.project_id
      WHERE d.org_id = $1 AND (d.blocked_issue_id = $2 OR d.blocking_issue_id = $2) ${dependencyId ? 'AND d.id = $3' : ''}
      ORDER BY d.created_at, d.id`,
    dependencyId ? [orgId, rootId, dependencyId] : [orgId, rootId],
  );
}
