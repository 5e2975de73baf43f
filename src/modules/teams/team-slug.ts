import { QueryFailedError } from 'typeorm';
import { Errors } from '../../common/errors/domain-error';
import { firstFreeSlug } from '../../common/naming/slug';
import type { TeamsRepository } from './teams.repository';

/** Lowercase kebab-case: what the `teams.slug` check constraint accepts. */
export const SLUG_RE = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const SLUG_MAX = 100;

/** The first free slug among `base`, `base-2`, `base-3`, … in the organization. */
export async function nextFreeSlug(teams: TeamsRepository, orgId: string, base: string): Promise<string> {
  return firstFreeSlug(base, await teams.slugsLike(orgId, base));
}

export const slugConflict = (slug: string) => Errors.conflict(`A team with slug "${slug}" already exists in this organization`, 'team_slug_taken');

/** A PostgreSQL unique violation of the named constraint/index (a lost race after an explicit check). */
export function isUniqueViolation(e: unknown, constraint: string): boolean {
  if (!(e instanceof QueryFailedError)) return false;
  const d = e.driverError as { code?: string; constraint?: string } | undefined;
  return d?.code === '23505' && d.constraint === constraint;
}
