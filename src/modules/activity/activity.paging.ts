import { Errors } from '../../common/errors/domain-error';

function single(raw: unknown, name: string): string | undefined {
  if (raw === undefined) return undefined;
  if (Array.isArray(raw)) throw Errors.validation(`${name} must be given once`);
  if (typeof raw !== 'string') throw Errors.validation(`${name} must be a plain value`);
  return raw;
}

/** Issue timeline paging: `limit` default 50, clamped to 1..100 (non-numeric 400); `offset` non-negative integer. */
export function parseIssueActivityPage(query: Record<string, unknown>): { limit: number; offset: number } {
  const l = single(query.limit, 'limit');
  const o = single(query.offset, 'offset');
  let limit = 50;
  if (l !== undefined) {
    if (!/^-?\d+$/.test(l.trim())) throw Errors.validation('limit must be an integer');
    limit = Math.min(100, Math.max(1, Number(l.trim())));
  }
  let offset = 0;
  if (o !== undefined) {
    if (!/^\d+$/.test(o.trim())) throw Errors.validation('offset must be a non-negative integer');
    offset = Number(o.trim());
    if (!Number.isSafeInteger(offset) || offset > 1_000_000_000) throw Errors.validation('offset is too large');
  }
  return { limit, offset };
}

export type ActivityFilter = 'all' | 'by_me' | 'mine';

export function parseActivityFilter(query: Record<string, unknown>): ActivityFilter {
  const f = single(query.filter, 'filter');
  if (f === undefined || f === '') return 'all';
  if (f !== 'all' && f !== 'by_me' && f !== 'mine') throw Errors.validation('filter must be all, by_me or mine');
  return f;
}
