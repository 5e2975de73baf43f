import { Errors } from '../../common/errors/domain-error';
import type { Queryable } from './team.reader';

/** Lowercase kebab-case: what the `teams.slug` check constraint accepts. */
export const SLUG_RE = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const SLUG_MAX = 100;
/** Derived slugs stay short enough to take a numeric suffix. */
const DERIVED_MAX = 60;

/** `Platform Team (EU)` → `platform-team-eu`; accents are folded; nothing usable → `team`. */
export function slugify(name: string): string {
  const s = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, DERIVED_MAX)
    .replace(/-+$/g, '');
  return s || 'team';
}

/** The first free slug among `base`, `base-2`, `base-3`, … in the organization. */
export async function nextFreeSlug(db: Queryable, orgId: string, base: string): Promise<string> {
  const rows: Array<{ slug: string }> = await db.query(`SELECT slug FROM teams WHERE org_id = $1 AND (slug = $2 OR slug LIKE $2 || '-%')`, [orgId, base]);
  const taken = new Set(rows.map((r) => r.slug));
  if (!taken.has(base)) return base;
  let n = 2;
  while (taken.has(`${base}-${n}`)) n++;
  return `${base}-${n}`;
}

export async function slugTaken(db: Queryable, orgId: string, slug: string, exceptTeamId?: string): Promise<boolean> {
  const rows: unknown[] = await db.query('SELECT 1 FROM teams WHERE org_id = $1 AND slug = $2 AND ($3::uuid IS NULL OR id <> $3::uuid)', [orgId, slug, exceptTeamId ?? null]);
  return rows.length > 0;
}

export const slugConflict = (slug: string) => Errors.conflict(`A team with slug "${slug}" already exists in this organization`, 'team_slug_taken');
