/** Names to URL slugs, shared by every resource that has one (projects, teams). */

/** Folds accents to their base letters (`Café` → `Cafe`). */
export const foldAccents = (s: string): string => s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');

/** Derived slugs stay short enough to take a numeric suffix. */
const DERIVED_MAX = 60;

/** `Platform Team (EU)` → `platform-team-eu`: lowercase ASCII words joined by `-`; `fallback` when nothing usable is left. */
export function slugify(name: string, fallback: string): string {
  const s = foldAccents(name)
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
