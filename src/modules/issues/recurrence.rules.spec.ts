import { DomainError } from '../../common/errors/domain-error';
import {
  applyRecurrence,
  nextDueDate,
  nextScheduledRun,
  type RecurrenceInput,
  type RecurrenceState,
  recurrenceColumns,
  recurrenceResponse,
  zonedInstant,
} from './recurrence.rules';

const NOW = new Date('2026-06-10T12:00:00Z'); // a Wednesday

function rejects(input: RecurrenceInput, current: RecurrenceState | null = null, pattern?: RegExp): void {
  let err: unknown;
  try {
    applyRecurrence(current, input, null, NOW);
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(DomainError);
  expect((err as DomainError).status).toBe(400);
  if (pattern) expect((err as DomainError).message).toMatch(pattern);
}

const sched = (extra: RecurrenceInput = {}): RecurrenceState =>
  applyRecurrence(null, { recurrenceType: 'daily', recurrenceMaterializationMode: 'schedule', ...extra }, null, NOW)!;

describe('applyRecurrence: validation matrix', () => {
  it.each([
    ['unknown type', { recurrenceType: 'yearly' }],
    ['numeric type', { recurrenceType: 3 }],
    ['interval 0', { recurrenceType: 'daily', recurrenceInterval: 0 }],
    ['negative interval', { recurrenceType: 'daily', recurrenceInterval: -1 }],
    ['fractional interval', { recurrenceType: 'daily', recurrenceInterval: 1.5 }],
    ['string interval', { recurrenceType: 'daily', recurrenceInterval: '2' }],
    ['huge interval', { recurrenceType: 'daily', recurrenceInterval: 1e20 }],
    ['interval over int32', { recurrenceType: 'daily', recurrenceInterval: 2147483648 }],
    ['schedule interval over 10000', { recurrenceType: 'daily', recurrenceMaterializationMode: 'schedule', recurrenceInterval: 10001 }],
    ['unknown mode', { recurrenceType: 'daily', recurrenceMaterializationMode: 'sometimes' }],
    ['days with completion mode', { recurrenceType: 'weekly', recurrenceDays: ['mon'] }],
    ['days with daily schedule', { recurrenceType: 'daily', recurrenceMaterializationMode: 'schedule', recurrenceDays: ['mon'] }],
    ['duplicate days', { recurrenceType: 'weekly', recurrenceMaterializationMode: 'schedule', recurrenceDays: ['mon', 'mon'] }],
    ['unknown day', { recurrenceType: 'weekly', recurrenceMaterializationMode: 'schedule', recurrenceDays: ['monday'] }],
    ['days not an array', { recurrenceType: 'weekly', recurrenceMaterializationMode: 'schedule', recurrenceDays: 'mon' }],
    ['time 24:00', { recurrenceType: 'daily', recurrenceMaterializationMode: 'schedule', recurrenceTime: '24:00' }],
    ['time 9:00', { recurrenceType: 'daily', recurrenceMaterializationMode: 'schedule', recurrenceTime: '9:00' }],
    ['time number', { recurrenceType: 'daily', recurrenceMaterializationMode: 'schedule', recurrenceTime: 900 }],
    ['fake zone', { recurrenceType: 'daily', recurrenceMaterializationMode: 'schedule', recurrenceTimezone: 'Mars/Olympus_Mons' }],
    ['numeric zone', { recurrenceType: 'daily', recurrenceMaterializationMode: 'schedule', recurrenceTimezone: 42 }],
    ['time in completion mode', { recurrenceType: 'daily', recurrenceTime: '10:00' }],
    ['zone in completion mode', { recurrenceType: 'daily', recurrenceTimezone: 'Europe/Berlin' }],
    ['fields without a type', { recurrenceInterval: 2 }],
  ])('%s → 400', (_name, input) => rejects(input as RecurrenceInput));

  it('accepts the limits and defaults', () => {
    const c = applyRecurrence(null, { recurrenceType: 'daily', recurrenceInterval: 2147483647 }, null, NOW)!;
    expect(c).toEqual({
      recurrenceType: 'daily',
      recurrenceInterval: 2147483647,
      recurrenceDays: null,
      recurrenceMode: 'completion',
      recurrenceTime: null,
      recurrenceTimezone: null,
      recurrenceNextRunAt: null,
    });
    const s = sched({ recurrenceInterval: 10000 });
    expect(s.recurrenceInterval).toBe(10000);
    expect(s.recurrenceTime).toBe('09:00');
    expect(s.recurrenceTimezone).toBe('UTC');
    expect(s.recurrenceNextRunAt).toBeInstanceOf(Date);
  });

  it('stores weekdays in calendar order and canonical zone names', () => {
    const s = applyRecurrence(
      null,
      { recurrenceType: 'weekly', recurrenceMaterializationMode: 'schedule', recurrenceDays: ['sun', 'mon', 'fri'], recurrenceTimezone: 'europe/berlin' },
      null,
      NOW,
    )!;
    expect(s.recurrenceDays).toEqual(['mon', 'fri', 'sun']);
    expect(s.recurrenceTimezone).toBe('Europe/Berlin');
  });

  it('switching a large completion interval to schedule mode is checked against 10000', () => {
    const c = applyRecurrence(null, { recurrenceType: 'daily', recurrenceInterval: 50000 }, null, NOW)!;
    rejects({ recurrenceMaterializationMode: 'schedule' }, c, /10000/);
  });

  it('no recurrence key returns current unchanged (unrelated updates keep the schedule)', () => {
    const s = sched();
    expect(applyRecurrence(s, {}, '2030-01-01', NOW)).toBe(s);
    expect(applyRecurrence(s, { recurrenceType: undefined }, null, NOW)).toBe(s);
    expect(applyRecurrence(null, {}, null, NOW)).toBeNull();
  });

  it('recurrenceType null clears everything', () => {
    expect(applyRecurrence(sched(), { recurrenceType: null }, null, NOW)).toBeNull();
    expect(recurrenceColumns(null)).toEqual({
      recurrenceType: null,
      recurrenceInterval: null,
      recurrenceDays: null,
      recurrenceMode: null,
      recurrenceTime: null,
      recurrenceTimezone: null,
      recurrenceNextRunAt: null,
    });
  });

  it('merges partial updates and drops fields that no longer apply', () => {
    const w = applyRecurrence(
      null,
      { recurrenceType: 'weekly', recurrenceMaterializationMode: 'schedule', recurrenceDays: ['tue'], recurrenceTime: '07:15' },
      null,
      NOW,
    )!;
    const w2 = applyRecurrence(w, { recurrenceInterval: 2 }, null, NOW)!;
    expect(w2).toMatchObject({ recurrenceType: 'weekly', recurrenceInterval: 2, recurrenceDays: ['tue'], recurrenceTime: '07:15', recurrenceMode: 'schedule' });
    const c = applyRecurrence(w2, { recurrenceMaterializationMode: 'completion' }, null, NOW)!;
    expect(c).toMatchObject({ recurrenceMode: 'completion', recurrenceDays: null, recurrenceTime: null, recurrenceTimezone: null, recurrenceNextRunAt: null });
    const d = applyRecurrence(w2, { recurrenceType: 'daily' }, null, NOW)!;
    expect(d.recurrenceDays).toBeNull();
    expect(d.recurrenceTime).toBe('07:15');
  });
});

describe('recurrenceResponse', () => {
  it('never exposes the cursor and orders days', () => {
    const r = recurrenceResponse({
      recurrenceType: 'weekly',
      recurrenceInterval: 1,
      recurrenceDays: ['fri', 'mon'],
      recurrenceMode: 'schedule',
      recurrenceTime: '09:00',
      recurrenceTimezone: 'UTC',
      recurrenceNextRunAt: new Date(),
    });
    expect(r).toEqual({
      recurrence_type: 'weekly',
      recurrence_interval: 1,
      recurrence_days: ['mon', 'fri'],
      recurrence_materialization_mode: 'schedule',
      recurrence_time: '09:00',
      recurrence_timezone: 'UTC',
      recurrence_schedule: { type: 'weekly', interval: 1, days: ['mon', 'fri'] },
    });
    expect(JSON.stringify(r)).not.toMatch(/next_run/);
  });

  it('is all null without recurrence', () => {
    const r = recurrenceResponse({
      recurrenceType: null,
      recurrenceInterval: null,
      recurrenceDays: null,
      recurrenceMode: null,
      recurrenceTime: null,
      recurrenceTimezone: null,
      recurrenceNextRunAt: null,
    });
    expect(r.recurrence_schedule).toBeNull();
    expect(r.recurrence_type).toBeNull();
  });
});

describe('nextDueDate (completion mode)', () => {
  it.each([
    ['daily', 1, '2026-01-31', '2026-02-01'],
    ['daily', 3, '2026-12-30', '2027-01-02'],
    ['custom', 10, '2026-02-25', '2026-03-07'],
    ['weekly', 1, '2026-01-01', '2026-01-08'],
    ['weekly', 2, '2026-01-01', '2026-01-15'],
    ['biweekly', 1, '2026-01-01', '2026-01-15'],
    ['biweekly', 2, '2026-01-01', '2026-01-29'],
    ['monthly', 1, '2026-01-31', '2026-02-28'],
    ['monthly', 1, '2028-01-31', '2028-02-29'],
    ['monthly', 1, '2026-03-31', '2026-04-30'],
    ['monthly', 12, '2028-02-29', '2029-02-28'],
    ['monthly', 1, '2026-12-15', '2027-01-15'],
    ['daily', 1, '2028-02-28', '2028-02-29'],
  ] as const)('%s ×%d from %s → %s', (type, interval, base, expected) => {
    expect(nextDueDate(type, interval, base)).toBe(expected);
  });
});

describe('series end', () => {
  it('a next date after 9999-12-31 ends the series instead of failing', () => {
    expect(nextDueDate('daily', 2147483647, '2026-01-01')).toBeNull();
    expect(nextDueDate('monthly', 2147483647, '2026-01-01')).toBeNull();
    expect(nextDueDate('daily', 1, '9999-12-31')).toBeNull();
    const s = applyRecurrence(null, { recurrenceType: 'monthly', recurrenceMaterializationMode: 'schedule', recurrenceInterval: 10000 }, '9999-01-01', NOW)!;
    expect(s.recurrenceNextRunAt).toBeNull();
  });
});

describe('zonedInstant and DST transitions of 2026', () => {
  it('New York spring forward (Mar 8): 02:30 does not exist and moves forward', () => {
    expect(zonedInstant('2026-03-08', '02:30', 'America/New_York').toISOString()).toBe('2026-03-08T07:30:00.000Z'); // 03:30 EDT
    expect(zonedInstant('2026-03-08', '09:00', 'America/New_York').toISOString()).toBe('2026-03-08T13:00:00.000Z');
    expect(zonedInstant('2026-03-07', '09:00', 'America/New_York').toISOString()).toBe('2026-03-07T14:00:00.000Z');
  });
  it('New York fall back (Nov 1): 01:30 is ambiguous and takes the first occurrence', () => {
    expect(zonedInstant('2026-11-01', '01:30', 'America/New_York').toISOString()).toBe('2026-11-01T05:30:00.000Z'); // EDT
    expect(zonedInstant('2026-11-01', '09:00', 'America/New_York').toISOString()).toBe('2026-11-01T14:00:00.000Z');
  });
  it('Berlin spring forward (Mar 29) and fall back (Oct 25)', () => {
    expect(zonedInstant('2026-03-29', '02:30', 'Europe/Berlin').toISOString()).toBe('2026-03-29T01:30:00.000Z'); // 03:30 CEST
    expect(zonedInstant('2026-03-28', '09:00', 'Europe/Berlin').toISOString()).toBe('2026-03-28T08:00:00.000Z');
    expect(zonedInstant('2026-03-29', '09:00', 'Europe/Berlin').toISOString()).toBe('2026-03-29T07:00:00.000Z');
    expect(zonedInstant('2026-10-25', '02:30', 'Europe/Berlin').toISOString()).toBe('2026-10-25T00:30:00.000Z'); // first, CEST
    expect(zonedInstant('2026-10-25', '09:00', 'Europe/Berlin').toISOString()).toBe('2026-10-25T08:00:00.000Z');
  });
});

describe('nextScheduledRun', () => {
  const st = (over: Partial<RecurrenceState>): RecurrenceState => ({
    recurrenceType: 'daily',
    recurrenceInterval: 1,
    recurrenceDays: null,
    recurrenceMode: 'schedule',
    recurrenceTime: '09:00',
    recurrenceTimezone: 'UTC',
    recurrenceNextRunAt: null,
    ...over,
  });

  it('daily 09:00 Berlin across spring forward keeps the local time', () => {
    const s = st({ recurrenceTimezone: 'Europe/Berlin' });
    const a = nextScheduledRun(s, '2026-03-28', new Date('2026-03-28T08:00:00Z'))!;
    expect(a).toEqual({ date: '2026-03-29', runAt: new Date('2026-03-29T07:00:00Z') });
    const b = nextScheduledRun(s, a.date, a.runAt);
    expect(b).toEqual({ date: '2026-03-30', runAt: new Date('2026-03-30T07:00:00Z') });
  });

  it('daily 02:30 New York on spring-forward day runs at 03:30 EDT', () => {
    const s = st({ recurrenceTimezone: 'America/New_York', recurrenceTime: '02:30' });
    expect(nextScheduledRun(s, '2026-03-07', new Date('2026-03-07T08:00:00Z'))).toEqual({ date: '2026-03-08', runAt: new Date('2026-03-08T07:30:00Z') });
  });

  it('daily 01:30 New York on fall-back day runs at the first 01:30', () => {
    const s = st({ recurrenceTimezone: 'America/New_York', recurrenceTime: '01:30' });
    expect(nextScheduledRun(s, '2026-10-31', new Date('2026-10-31T06:00:00Z'))).toEqual({ date: '2026-11-01', runAt: new Date('2026-11-01T05:30:00Z') });
    expect(nextScheduledRun(s, '2026-11-01', new Date('2026-11-01T05:30:00Z'))).toEqual({ date: '2026-11-02', runAt: new Date('2026-11-02T06:30:00Z') });
  });

  it('weekly Berlin across fall back (Oct 25 2026 is a Sunday)', () => {
    const s = st({ recurrenceType: 'weekly', recurrenceTimezone: 'Europe/Berlin', recurrenceTime: '10:00' });
    expect(nextScheduledRun(s, '2026-10-18', new Date('2026-10-18T08:00:00Z'))).toEqual({ date: '2026-10-25', runAt: new Date('2026-10-25T09:00:00Z') });
  });

  it('weekly with days picks the next listed weekday in the zone', () => {
    const s = st({ recurrenceType: 'weekly', recurrenceDays: ['mon', 'thu'], recurrenceTimezone: 'America/New_York', recurrenceTime: '08:00' });
    // Wed 2026-06-10 12:00Z = 08:00 EDT; anchor today → Thursday
    expect(nextScheduledRun(s, '2026-06-10', NOW)).toEqual({ date: '2026-06-11', runAt: new Date('2026-06-11T12:00:00Z') });
    expect(nextScheduledRun(s, '2026-06-11', new Date('2026-06-11T12:00:00Z'))).toEqual({ date: '2026-06-15', runAt: new Date('2026-06-15T12:00:00Z') });
  });

  it('weekly with days every 2 weeks skips the off week', () => {
    const s = st({ recurrenceType: 'weekly', recurrenceInterval: 2, recurrenceDays: ['mon', 'wed'] });
    // anchor Mon 2026-06-08 → Wed 06-10 (same week) → Mon 06-22
    const a = nextScheduledRun(s, '2026-06-08', new Date('2026-06-08T09:00:00Z'))!;
    expect(a.date).toBe('2026-06-10');
    expect(nextScheduledRun(s, a.date, a.runAt)!.date).toBe('2026-06-22');
  });

  it('monthly at month ends, and New York across the Nov 1 transition', () => {
    const s = st({ recurrenceType: 'monthly', recurrenceTimezone: 'America/New_York' });
    expect(nextScheduledRun(s, '2026-10-01', new Date('2026-10-01T13:00:00Z'))).toEqual({ date: '2026-11-01', runAt: new Date('2026-11-01T14:00:00Z') });
    const m = st({ recurrenceType: 'monthly' });
    expect(nextScheduledRun(m, '2028-01-31', new Date('2028-01-31T10:00:00Z'))!.date).toBe('2028-02-29');
  });

  it('past anchors skip to the first slot after now without back-filling', () => {
    const s = st({});
    expect(nextScheduledRun(s, '2020-01-01', NOW)).toEqual({ date: '2026-06-11', runAt: new Date('2026-06-11T09:00:00Z') });
    const m = st({ recurrenceType: 'monthly', recurrenceInterval: 3 });
    const r = nextScheduledRun(m, '2025-01-31', NOW)!; // slots Apr 30, Jul 31, Oct 31, Jan 31, Apr 30, Jul 31 2026
    expect(r.date).toBe('2026-07-31');
  });

  it('applyRecurrence computes the cursor from the due date, or today in the zone', () => {
    const s = applyRecurrence(
      null,
      { recurrenceType: 'daily', recurrenceMaterializationMode: 'schedule', recurrenceTime: '18:00', recurrenceTimezone: 'Asia/Tokyo' },
      null,
      NOW,
    )!;
    // NOW is 21:00 in Tokyo on 06-10 → next day 18:00 JST
    expect(s.recurrenceNextRunAt).toEqual(new Date('2026-06-11T09:00:00Z'));
    const d = applyRecurrence(null, { recurrenceType: 'weekly', recurrenceMaterializationMode: 'schedule' }, '2026-07-01', NOW)!;
    expect(d.recurrenceNextRunAt).toEqual(new Date('2026-07-08T09:00:00Z'));
  });
});
