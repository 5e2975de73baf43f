/**
 * Pure rules of recurring issues (interface.md "Task (issue) request fields", Rules 1-4).
 *
 * Decisions the contract leaves open (documented here once):
 * - `custom` means "every `recurrenceInterval` days" (like `daily`); it takes no `recurrenceDays`.
 * - `recurrenceTime` / `recurrenceTimezone` are accepted only when the effective mode is `schedule`
 *   (400 otherwise). In schedule mode they default to `09:00` and `UTC` and are stored explicitly;
 *   the zone is stored in its canonical spelling (`europe/berlin` → `Europe/Berlin`).
 * - `null` for `recurrenceType` clears every recurrence field; `null` for another field resets it to
 *   its default (interval 1, mode completion, no days, 09:00, UTC). An empty `recurrenceDays` array
 *   means "no days".
 * - Changing the mode or type keeps the other stored fields where they still apply and silently drops
 *   those that no longer do (stored days when the result is not weekly+schedule; time and zone when
 *   the result is completion mode). Values SENT in the same request that do not apply are a 400.
 * - Schedule mode: the current issue is the occurrence of its due date (today in the zone when it has
 *   none); the cursor `recurrenceNextRunAt` is the first later slot (at `recurrenceTime` in the zone)
 *   that is after `now`. Missed slots are not back-filled. The cursor is recomputed whenever a
 *   recurrence field is sent; changing `dueDate` alone keeps it (unrelated updates keep the schedule).
 * - Weekly with days and interval n: the listed weekdays of every n-th week counted from the anchor's
 *   week (weeks start on Monday).
 * - Monthly: calendar months clamped to the month end (Jan 31 + 1 month = Feb 28, or 29 in leap years).
 *   In completion mode each occurrence advances from its own due date, so after a clamp the day stays
 *   clamped (Jan 31 → Feb 28 → Mar 28).
 * - A next date after 9999-12-31 ends the series (no further occurrence, no cursor).
 * - Wall-clock times that do not exist (spring forward) move forward by the gap (02:30 → 03:30);
 *   ambiguous ones (fall back) take the first occurrence (the daylight-saving offset).
 */
import { DateTime, IANAZone } from 'luxon';
import { Errors } from '../../common/errors/domain-error';
import type { IssueEntity, RecurrenceMode, RecurrenceType, Weekday } from './entities/issue.entity';
import { WEEKDAYS } from './entities/issue.entity';

export const RECURRENCE_TYPES: readonly RecurrenceType[] = ['daily', 'weekly', 'biweekly', 'monthly', 'custom'];
export const RECURRENCE_MODES: readonly RecurrenceMode[] = ['completion', 'schedule'];
export const SCHEDULE_INTERVAL_MAX = 10000;
export const INT32_MAX = 2147483647;
export const DEFAULT_RECURRENCE_TIME = '09:00';
export const DEFAULT_RECURRENCE_TIMEZONE = 'UTC';
const TIME_RE = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

/** The recurrence columns of an issue (IssueEntity property names). */
export interface RecurrenceState {
  recurrenceType: RecurrenceType;
  recurrenceInterval: number;
  recurrenceDays: Weekday[] | null;
  recurrenceMode: RecurrenceMode;
  recurrenceTime: string | null;
  recurrenceTimezone: string | null;
  recurrenceNextRunAt: Date | null;
}

/** Recurrence fields of a create/update request (camelCase; aliases already mapped by the caller). */
export interface RecurrenceInput {
  recurrenceType?: unknown;
  recurrenceInterval?: unknown;
  recurrenceDays?: unknown;
  recurrenceMaterializationMode?: unknown;
  recurrenceTime?: unknown;
  recurrenceTimezone?: unknown;
}

export const RECURRENCE_INPUT_KEYS: ReadonlyArray<keyof RecurrenceInput> = [
  'recurrenceType',
  'recurrenceInterval',
  'recurrenceDays',
  'recurrenceMaterializationMode',
  'recurrenceTime',
  'recurrenceTimezone',
];

/** The issue columns for a state; `null` (no recurrence) gives every column null. */
export function recurrenceColumns(state: RecurrenceState | null): { [K in keyof RecurrenceState]: RecurrenceState[K] | null } {
  return {
    recurrenceType: state?.recurrenceType ?? null,
    recurrenceInterval: state?.recurrenceInterval ?? null,
    recurrenceDays: state?.recurrenceDays ?? null,
    recurrenceMode: state?.recurrenceMode ?? null,
    recurrenceTime: state?.recurrenceTime ?? null,
    recurrenceTimezone: state?.recurrenceTimezone ?? null,
    recurrenceNextRunAt: state?.recurrenceNextRunAt ?? null,
  };
}

/** The recurrence state stored on an issue, or null when it does not recur. */
export function recurrenceStateOf(issue: RecurrenceColumnsLike): RecurrenceState | null {
  if (!issue.recurrenceType) return null;
  return {
    recurrenceType: issue.recurrenceType,
    recurrenceInterval: issue.recurrenceInterval ?? 1,
    recurrenceDays: issue.recurrenceDays?.length ? sortWeekdays(issue.recurrenceDays) : null,
    recurrenceMode: issue.recurrenceMode ?? 'completion',
    recurrenceTime: issue.recurrenceTime ?? null,
    recurrenceTimezone: issue.recurrenceTimezone ?? null,
    recurrenceNextRunAt: issue.recurrenceNextRunAt ?? null,
  };
}

type RecurrenceColumnsLike = Pick<
  IssueEntity,
  'recurrenceType' | 'recurrenceInterval' | 'recurrenceDays' | 'recurrenceMode' | 'recurrenceTime' | 'recurrenceTimezone' | 'recurrenceNextRunAt'
>;

export const sortWeekdays = (days: readonly Weekday[]): Weekday[] => [...days].sort((a, b) => WEEKDAYS.indexOf(a) - WEEKDAYS.indexOf(b));

function parseType(v: unknown): RecurrenceType {
  if (typeof v !== 'string' || !RECURRENCE_TYPES.includes(v as RecurrenceType)) {
    throw Errors.validation(`recurrenceType must be one of ${RECURRENCE_TYPES.join(', ')} (or null to stop recurring)`);
  }
  return v as RecurrenceType;
}

function parseMode(v: unknown): RecurrenceMode {
  if (typeof v !== 'string' || !RECURRENCE_MODES.includes(v as RecurrenceMode)) {
    throw Errors.validation(`recurrenceMaterializationMode must be one of ${RECURRENCE_MODES.join(', ')}`);
  }
  return v as RecurrenceMode;
}

function parseInterval(v: unknown): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > INT32_MAX) {
    throw Errors.validation(`recurrenceInterval must be a positive integer (at most ${INT32_MAX})`);
  }
  return v;
}

function parseDays(v: unknown): Weekday[] | null {
  if (!Array.isArray(v)) throw Errors.validation(`recurrenceDays must be an array of weekday values (${WEEKDAYS.join(', ')})`);
  const seen = new Set<Weekday>();
  for (const d of v) {
    if (typeof d !== 'string' || !WEEKDAYS.includes(d as Weekday)) {
      throw Errors.validation(`recurrenceDays values must be one of ${WEEKDAYS.join(', ')}`);
    }
    if (seen.has(d as Weekday)) throw Errors.validation(`recurrenceDays must not repeat a weekday (${d})`);
    seen.add(d as Weekday);
  }
  return seen.size ? sortWeekdays([...seen]) : null;
}

function parseTime(v: unknown): string {
  if (typeof v !== 'string' || !TIME_RE.test(v)) throw Errors.validation('recurrenceTime must be a local time HH:MM between 00:00 and 23:59');
  return v;
}

function parseZone(v: unknown): string {
  if (typeof v !== 'string' || v.length > 64 || !IANAZone.isValidZone(v)) {
    throw Errors.validation('recurrenceTimezone must be an IANA time zone name (e.g. Europe/Berlin)');
  }
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: v }).resolvedOptions().timeZone;
  } catch {
    throw Errors.validation('recurrenceTimezone must be an IANA time zone name (e.g. Europe/Berlin)');
  }
}

/**
 * Validates and merges the recurrence fields of a create (`current` null) or update request.
 * Returns the new state, `null` for "no recurrence", or `current` itself when the request carries no
 * recurrence field. Throws 400 (`Errors.validation`) on any invalid value or combination.
 */
export function applyRecurrence(current: RecurrenceState | null, input: RecurrenceInput, dueDate: string | null, now: Date): RecurrenceState | null {
  const has = (k: keyof RecurrenceInput) => input[k] !== undefined;
  if (!RECURRENCE_INPUT_KEYS.some(has)) return current;

  // Types of everything sent first, so a bad value is always reported.
  const sentType = has('recurrenceType') ? (input.recurrenceType === null ? null : parseType(input.recurrenceType)) : undefined;
  const sentMode = has('recurrenceMaterializationMode')
    ? input.recurrenceMaterializationMode === null
      ? null
      : parseMode(input.recurrenceMaterializationMode)
    : undefined;
  const sentInterval = has('recurrenceInterval') ? (input.recurrenceInterval === null ? null : parseInterval(input.recurrenceInterval)) : undefined;
  const sentDays = has('recurrenceDays') ? (input.recurrenceDays === null ? null : parseDays(input.recurrenceDays)) : undefined;
  const sentTime = has('recurrenceTime') ? (input.recurrenceTime === null ? null : parseTime(input.recurrenceTime)) : undefined;
  const sentZone = has('recurrenceTimezone') ? (input.recurrenceTimezone === null ? null : parseZone(input.recurrenceTimezone)) : undefined;

  if (sentType === null) return null;
  const base = current?.recurrenceType ? current : null;
  const type = sentType ?? base?.recurrenceType;
  if (!type) {
    const setsSomething = [sentMode, sentInterval, sentDays, sentTime, sentZone].some((v) => v !== undefined && v !== null);
    if (setsSomething) throw Errors.validation('recurrenceType is required to make an issue recurring');
    return current;
  }

  const mode: RecurrenceMode = sentMode === undefined ? (base?.recurrenceMode ?? 'completion') : (sentMode ?? 'completion');
  const interval = sentInterval === undefined ? (base?.recurrenceInterval ?? 1) : (sentInterval ?? 1);
  if (mode === 'schedule' && interval > SCHEDULE_INTERVAL_MAX) {
    throw Errors.validation(`recurrenceInterval must be at most ${SCHEDULE_INTERVAL_MAX} in schedule mode`);
  }

  const daysApply = type === 'weekly' && mode === 'schedule';
  if (sentDays && !daysApply) {
    throw Errors.validation("recurrenceDays is only allowed when recurrenceType is 'weekly' and recurrenceMaterializationMode is 'schedule'");
  }
  const days = daysApply ? (sentDays === undefined ? (base?.recurrenceDays ?? null) : sentDays) : null;

  if (mode !== 'schedule') {
    if (sentTime) throw Errors.validation("recurrenceTime is only used with recurrenceMaterializationMode 'schedule'");
    if (sentZone) throw Errors.validation("recurrenceTimezone is only used with recurrenceMaterializationMode 'schedule'");
  }
  const time = mode === 'schedule' ? ((sentTime === undefined ? base?.recurrenceTime : sentTime) ?? DEFAULT_RECURRENCE_TIME) : null;
  const zone = mode === 'schedule' ? ((sentZone === undefined ? base?.recurrenceTimezone : sentZone) ?? DEFAULT_RECURRENCE_TIMEZONE) : null;

  const state: RecurrenceState = {
    recurrenceType: type,
    recurrenceInterval: interval,
    recurrenceDays: days,
    recurrenceMode: mode,
    recurrenceTime: time,
    recurrenceTimezone: zone,
    recurrenceNextRunAt: null,
  };
  if (mode === 'schedule') {
    const anchor = dueDate ? dateOnly(dueDate) : DateTime.fromJSDate(now, { zone: zone! }).toISODate()!;
    state.recurrenceNextRunAt = nextScheduledRun(state, anchor, now)?.runAt ?? null;
  }
  return state;
}

/** The recurrence part of an issue response (never the next-run cursor). */
export function recurrenceResponse(issue: RecurrenceColumnsLike): {
  recurrence_type: RecurrenceType | null;
  recurrence_interval: number | null;
  recurrence_days: Weekday[] | null;
  recurrence_materialization_mode: RecurrenceMode | null;
  recurrence_time: string | null;
  recurrence_timezone: string | null;
  recurrence_schedule: { type: RecurrenceType; interval: number; days: Weekday[] } | null;
} {
  const s = recurrenceStateOf(issue);
  if (!s) {
    return {
      recurrence_type: null,
      recurrence_interval: null,
      recurrence_days: null,
      recurrence_materialization_mode: null,
      recurrence_time: null,
      recurrence_timezone: null,
      recurrence_schedule: null,
    };
  }
  const days = s.recurrenceDays ?? [];
  return {
    recurrence_type: s.recurrenceType,
    recurrence_interval: s.recurrenceInterval,
    recurrence_days: days,
    recurrence_materialization_mode: s.recurrenceMode,
    recurrence_time: s.recurrenceTime,
    recurrence_timezone: s.recurrenceTimezone,
    recurrence_schedule: { type: s.recurrenceType, interval: s.recurrenceInterval, days: [...days] },
  };
}

// ---------------------------------------------------------------------------------------------
// Dates

/** `YYYY-MM-DD` of a date-column value (TypeORM gives strings; raw pg rows may give a local Date). */
export function dateOnly(v: string | Date): string {
  if (v instanceof Date) {
    const p = (n: number) => String(n).padStart(2, '0');
    return `${v.getFullYear()}-${p(v.getMonth() + 1)}-${p(v.getDate())}`;
  }
  if (!DATE_RE.test(v.slice(0, 10))) throw new Error(`not a date: ${v}`);
  return v.slice(0, 10);
}

const day = (d: string) => DateTime.fromISO(d, { zone: 'utc' });
const iso = (d: DateTime) => d.toISODate()!;

/** Days one step of a day-based type spans, or null for monthly. */
function stepDays(type: RecurrenceType, interval: number): number | null {
  switch (type) {
    case 'daily':
    case 'custom':
      return interval;
    case 'weekly':
      return 7 * interval;
    case 'biweekly':
      return 14 * interval;
    case 'monthly':
      return null;
  }
}

/** The k-th slot date after `anchor` (k ≥ 1) of a type without weekdays. */
function slotDate(type: RecurrenceType, interval: number, anchor: string, k: number): string | null {
  const step = stepDays(type, interval);
  const d = step === null ? day(anchor).plus({ months: k * interval }) : day(anchor).plus({ days: k * step });
  return d.isValid && d.year <= MAX_YEAR ? iso(d) : null;
}

/** Dates after this year end a series (date columns and the YYYY-MM-DD format stop there). */
const MAX_YEAR = 9999;

/**
 * Completion mode: the due date of the next occurrence (`base` = current due date, or today);
 * null when it would fall after 9999-12-31 (the series ends; huge intervals are valid input).
 */
export function nextDueDate(type: RecurrenceType, interval: number, base: string): string | null {
  return slotDate(type, interval, dateOnly(base), 1);
}

/** UTC date of an instant (the base of a completion-mode occurrence without a due date). */
export const utcDate = (now: Date): string => now.toISOString().slice(0, 10);

/**
 * The instant of local wall time `time` on `date` in `zone`. Non-existent times (spring forward)
 * move forward by the gap; ambiguous ones (fall back) resolve to the first (earlier) instant.
 */
export function zonedInstant(date: string, time: string, zone: string): Date {
  const [year, month, dayOfMonth] = date.split('-').map(Number);
  const [hour, minute] = time.split(':').map(Number);
  const dt = DateTime.fromObject({ year, month, day: dayOfMonth, hour, minute }, { zone });
  if (!dt.isValid) throw new Error(`invalid local time ${date} ${time} ${zone}`);
  const before = DateTime.fromMillis(dt.toMillis() - 3 * 3600_000, { zone });
  if (before.offset > dt.offset) {
    const alt = DateTime.fromMillis(dt.toMillis() - (before.offset - dt.offset) * 60_000, { zone });
    if (alt.hour === hour && alt.minute === minute && alt.day === dayOfMonth) return alt.toJSDate();
  }
  return dt.toJSDate();
}

/**
 * Schedule mode: the first slot strictly after the anchor date whose instant is after `after`.
 * Returns the instant and the slot's local date (the due date of the occurrence it creates).
 */
export function nextScheduledRun(
  state: Pick<RecurrenceState, 'recurrenceType' | 'recurrenceInterval' | 'recurrenceDays' | 'recurrenceTime' | 'recurrenceTimezone'>,
  anchorDate: string,
  after: Date,
): { runAt: Date; date: string } | null {
  const zone = state.recurrenceTimezone ?? DEFAULT_RECURRENCE_TIMEZONE;
  const time = state.recurrenceTime ?? DEFAULT_RECURRENCE_TIME;
  const interval = state.recurrenceInterval;
  const anchor = dateOnly(anchorDate);
  const today = DateTime.fromJSDate(after, { zone }).toISODate()!;
  const days = state.recurrenceType === 'weekly' && state.recurrenceDays?.length ? state.recurrenceDays : null;

  if (days) {
    const anchorMonday = day(anchor).startOf('week');
    // start no earlier than the day before `after`'s local date (earlier days are all in the past)
    let d = day(anchor).plus({ days: 1 });
    const floor = day(today).minus({ days: 1 });
    if (floor > d) d = floor;
    for (let i = 0; i < 7 * interval * 2 + 14; i++, d = d.plus({ days: 1 })) {
      if (d.year > MAX_YEAR) return null;
      const weekday = WEEKDAYS[d.weekday - 1];
      if (!days.includes(weekday)) continue;
      const weeks = Math.round(d.startOf('week').diff(anchorMonday, 'days').days / 7);
      if (weeks % interval !== 0) continue;
      const runAt = zonedInstant(iso(d), time, zone);
      if (runAt > after) return { runAt, date: iso(d) };
    }
    throw new Error('no scheduled run found');
  }

  const step = stepDays(state.recurrenceType, interval);
  let k: number;
  if (step !== null) {
    const diff = Math.floor(day(today).diff(day(anchor), 'days').days);
    k = Math.max(1, Math.floor(diff / step));
  } else {
    const a = day(anchor);
    const t = day(today);
    const months = (t.year - a.year) * 12 + (t.month - a.month);
    k = Math.max(1, Math.floor(months / interval));
  }
  for (let i = 0; i < 1000; i++, k++) {
    const date = slotDate(state.recurrenceType, interval, anchor, k);
    if (!date) return null;
    const runAt = zonedInstant(date, time, zone);
    if (runAt > after) return { runAt, date };
  }
  throw new Error('no scheduled run found');
}
