import { Platform1763800000000 } from './1763800000000-platform';
import { WorkTracking1763900000000 } from './1763900000000-work-tracking';
import { IssueCounts1764100000000 } from './1764100000000-issue-counts';

/** Append-only: a landed migration is never edited; new ones are added at the end. */
export const MIGRATIONS = [Platform1763800000000, WorkTracking1763900000000, IssueCounts1764100000000];
