/** Names to URL slugs, shared by every resource that has one (projects, teams). */

/** Folds accents to their base letters (`Café` → `Cafe`). */
export const foldAccents = (s: string): string => s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');

/**
 * Names reach the derivations (slugs, project keys, organization prefixes) validated: at most 200
 * characters (the DTOs). They read no more than this many, so a caller that skipped validation
 * cannot make them slow (Unicode normalization can multiply a text's length by 18).
 */
export const NAME_READ_MAX = 1_000;

/** The part of a name the derivations read. */
export const nameHead = (name: string): string => name.slice(0, NAME_READ_MAX);

/** Derived slugs stay short enough to take a numeric suffix. */
const DERIVED_MAX = 60;

/** `Platform Team (EU)` → `platform-team-eu`: lowercase ASCII words joined by `-`; `fallback` when nothing usable is left. */
export function slugify(name: string, fallback: string): string {
  const s = foldAccents(nameHead(name))
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, DERIVED_MAX)
    .replace(/-+$/g, '');
  return s || fallback;
}

/** `base` when free, otherwise the first free of `base-2`, `base-3`, … */
export function firstFreeSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  let n = 2;
  while (taken.has(`${base}-${n}`)) n++;
  return `${base}-${n}`;
}
