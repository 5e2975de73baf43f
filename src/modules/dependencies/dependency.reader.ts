import type { Tx } from '../../database/sql.service';
import type { DependenciesRepository } from './dependencies.repository';
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

/** The release column id of a request body (aliases already mapped); undefined when absent. */
export function readReleaseColumnId(body: Record<string, unknown>, required: boolean): string | undefined {
  const v = body.releaseColumnId;
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
 * Release column for a dependency whose blocking issue is in `projectId`: the given column (400
 * unless it is a column of that project), else the project's `done` column, else its last column.
 */
export async function resolveReleaseColumn(
  dependencies: DependenciesRepository,
  m: Tx,
  orgId: string,
  projectId: string,
  requested: string | undefined,
): Promise<string | null> {
  if (requested !== undefined) {
    if (!(await dependencies.isProjectColumn(orgId, projectId, requested, m))) {
      throw Errors.validation("releaseColumnId must be a board column of the blocking issue's project");
    }
    return requested;
  }
  return dependencies.defaultReleaseColumn(orgId, projectId, m);
}
