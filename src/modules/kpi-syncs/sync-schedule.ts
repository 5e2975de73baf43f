import type { SyncSchedule } from './sync-config';

/**
 * Slots of the sync schedules, in UTC: `hourly` = the hour, `daily` = the day, `weekly` = the ISO
 * week (Monday 00:00). A run's `recorded_for` is the ISO instant of its slot's start, e.g.
 * `2026-11-24T00:00:00.000Z` for a daily run on 24 November. `manual` syncs never run on their
 * own; their manual runs are recorded for the day.
 */
export function slotStart(schedule: SyncSchedule, at: Date): Date {
  const d = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate(), schedule === 'hourly' ? at.getUTCHours() : 0));
  if (schedule === 'weekly') d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d;
}

export const recordedFor = (schedule: SyncSchedule, at: Date): string => slotStart(schedule, at).toISOString();

/** The schedules the sweep runs. */
export const SCHEDULED: readonly SyncSchedule[] = ['hourly', 'daily', 'weekly'];
