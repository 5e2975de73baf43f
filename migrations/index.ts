import { Platform1763800000000 } from './1763800000000-platform';

/** Append-only: a landed migration is never edited; new ones are added at the end. */
export const MIGRATIONS = [Platform1763800000000];
