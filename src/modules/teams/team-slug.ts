import { Errors } from '../../common/errors/domain-error';
import { firstFreeSlug } from '../../common/naming/slug';
import type { Queryable } from './team.reader';

/** Lowercase kebab-case: what the `teams.slug` check constraint accepts. */
export const SLUG_RE = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const SLUG_MAX = 100;

/** The first free slug among `base`, `base-2`, `base-3`, … in the organization. */
export async function nextFreeSlug(db: Queryable, orgId: string, base: string): Promise<string> {
  const rows: Array<{ slug: string }> = await db.query(`SELECT slug FROM teams WHERE org_id = $1 AND (slug = $2 OR slug LIKE $2 || '-%')`, [orgId, base]);
  return firstFreeSlug(base, new Set(rows.map((r) => r.slug)));
}

export async function slugTaken(db: Queryable, orgId: string, slug: string, exceptTeamId?: string): Promise<boolean> {
  const rows: unknown[] = await db.query('SELECT 1 FROM teams WHERE org_id = $1 AND slug = $2 AND ($3::uuid IS NULL OR id <> $3::uuid)', [orgId, slug, exceptTeamId ?? null]);
  return rows.length > 0;
}

export const slugConflict = (slug: string) => Errors.conflict(`A team with slug "${slug}" already exists in this organization`, 'team_slug_taken');
