import { Platform1763800000000 } from './1763800000000-platform';
import { WorkTracking1763900000000 } from './1763900000000-work-tracking';
import { Webhooks1764300000000 } from './1764300000000-webhooks';
import { Automation1764400000000 } from './1764400000000-automation';

/** Append-only: a landed migration is never edited; new ones are added at the end. */
export const MIGRATIONS = [Platform1763800000000, WorkTracking1763900000000, Webhooks1764300000000, Automation1764400000000];
