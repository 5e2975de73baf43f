import { Errors } from '../errors/domain-error';

export const LIST_DEFAULT_LIMIT = 25;
export const LIST_MAX_LIMIT = 100;

export interface PageRequest {
  limit: number;
  offset: number;
  envelope: boolean;
}

function single(raw: unknown, name: string): string | undefined {
  if (raw === undefined) return undefined;
  if (Array.isArray(raw)) throw Errors.validation(`${name} must be given once`);
  if (typeof raw !== 'string') throw Errors.validation(`${name} must be a plain value`);
  return raw;
}

/** `limit`: positive integer, above the maximum clamped; `offset`: non-negative integer. */
export function parsePage(query: Record<string, unknown>, opts: { defaultLimit?: number; maxLimit?: number; minLimit?: number } = {}): PageRequest {
  const { defaultLimit = LIST_DEFAULT_LIMIT, maxLimit = LIST_MAX_LIMIT, minLimit = 1 } = opts;
  const l = single(query.limit, 'limit');
  const o = single(query.offset, 'offset');
  let limit = defaultLimit;
  if (l !== undefined) {
    if (!/^\d+$/.test(l)) throw Errors.validation('limit must be a positive integer');
    const n = Number(l);
    if (n < minLimit) throw Errors.validation(`limit must be at least ${minLimit}`);
    limit = Math.min(n, maxLimit);
  }
  let offset = 0;
  if (o !== undefined) {
    if (!/^\d+$/.test(o)) throw Errors.validation('offset must be a non-negative integer');
    offset = Number(o);
    if (!Number.isSafeInteger(offset) || offset > 1_000_000_000) throw Errors.validation('offset is too large');
  }
  return { limit, offset, envelope: wantsEnvelope(query) };
}

/** `shape=envelope` or its alias `response_shape=cli`. */
export function wantsEnvelope(query: Record<string, unknown>): boolean {
  const shape = single(query.shape, 'shape');
  const rs = single(query.response_shape, 'response_shape');
  if (shape !== undefined && !['envelope', 'legacy'].includes(shape)) throw Errors.validation('shape must be envelope or legacy');
  if (rs !== undefined && !['cli', 'legacy'].includes(rs)) throw Errors.validation('response_shape must be cli or legacy');
  return shape === 'envelope' || rs === 'cli';
}

export interface Envelope<T> {
  resource: string;
  items: T[];
  total: number;
  limit: number;
  offset: number;
  nextOffset: number | null;
  truncated: boolean;
  hint: string | null;
}

export function envelope<T>(resource: string, items: T[], total: number, page: PageRequest): Envelope<T> {
  const nextOffset = page.offset + items.length < total ? page.offset + items.length : null;
  return {
    resource,
    items,
    total,
    limit: page.limit,
    offset: page.offset,
    nextOffset,
    truncated: nextOffset !== null,
    hint: nextOffset !== null ? `Showing ${items.length} of ${total}; request offset=${nextOffset} for more.` : null,
  };
}

/**
 * One place for both list shapes: the legacy resource-key object `{ [key]: items, total, limit,
 * offset }` or the envelope.
 */
export function listResponse<T>(resource: string, items: T[], total: number, page: PageRequest): Record<string, unknown> {
  if (page.envelope) return envelope(resource, items, total, page) as unknown as Record<string, unknown>;
  return { [resource]: items, total, limit: page.limit, offset: page.offset };
}
