import { Errors } from '../../common/errors/domain-error';

export const MAX_RANGE_DAYS = 366;
const DAY_MS = 86_400_000;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const INSTANT_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-](\d{2}):(\d{2}))$/i;

/** A half-open UTC range [from, to): a date `to` includes its whole day. */
export interface AnalyticsRange {
  from: Date;
  to: Date;
}

const validDay = (y: number, m: number, d: number): boolean => {
  if (m < 1 || m > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
};

/**
 * One bound: a calendar-valid `YYYY-MM-DD` (the start of that UTC day; as `to`, the start of the
 * next one) or an RFC 3339 timestamp with `Z` or an explicit offset. Partial dates, timestamps
 * without an offset and dates that do not exist (2026-02-30, 24:00) are 400.
 */
function parseBound(name: 'from' | 'to', v: unknown): Date {
  if (typeof v !== 'string' || !v) throw Errors.validation(`${name} is required: a YYYY-MM-DD date or an RFC 3339 timestamp with an offset`);
  const d = DATE_RE.exec(v);
  if (d) {
    const [y, m, day] = [Number(d[1]), Number(d[2]), Number(d[3])];
    if (!validDay(y, m, day)) throw Errors.validation(`${name} is not a calendar date: ${v}`);
    return new Date(Date.UTC(y, m - 1, day + (name === 'to' ? 1 : 0)));
  }
  const t = INSTANT_RE.exec(v);
  if (!t) throw Errors.validation(`${name} must be a YYYY-MM-DD date or an RFC 3339 timestamp with Z or an offset (got ${JSON.stringify(v.slice(0, 40))})`);
  const [y, m, day, hh, mm, ss] = [1, 2, 3, 4, 5, 6].map((i) => Number(t[i]));
  const offH = t[9] === undefined ? 0 : Number(t[9]);
  const offM = t[10] === undefined ? 0 : Number(t[10]);
  if (!validDay(y, m, day) || hh > 23 || mm > 59 || ss > 59 || offH > 23 || offM > 59) throw Errors.validation(`${name} is not a valid timestamp: ${v}`);
  const at = new Date(v);
  if (Number.isNaN(at.getTime())) throw Errors.validation(`${name} is not a valid timestamp: ${v}`);
  return at;
}

/** `from` and `to` of the query: both required, ordered, at most 366 days apart. */
export function parseRange(query: Record<string, unknown>): AnalyticsRange {
  const from = parseBound('from', query.from);
  const to = parseBound('to', query.to);
  if (to.getTime() <= from.getTime()) throw Errors.validation('to must be after from');
  if (to.getTime() - from.getTime() > MAX_RANGE_DAYS * DAY_MS) throw Errors.validation(`The range may span at most ${MAX_RANGE_DAYS} days`);
  return { from, to };
}
