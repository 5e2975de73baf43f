import fc from 'fast-check';
import { HeartbeatService, MAX_ITEMS } from '../../src/modules/heartbeat/heartbeat.service';

type Item = { kind: 'execution_resolved' | 'execution_open' | 'attention' | 'signal'; key: string; fp: string; data: Record<string, unknown> };
type Pack = (
  actor: unknown,
  envelope: Record<string, unknown>,
  items: Item[],
  maxBytes: number,
  run: string,
  page: number,
  persist: boolean,
) => { body: Record<string, unknown>; rest: Item[] };

const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v), 'utf8');

/** The page packing as first written (one serialization per item taken): the reference. */
function linearPack(envelope: Record<string, unknown>, items: Item[], maxBytes: number): { body: Record<string, unknown>; rest: Item[] } | 'too_small' {
  const render = (taken: Item[], hasMore: boolean) => ({
    ...envelope,
    attention_items: taken.filter((i) => i.kind === 'attention').map((i) => i.data),
    signal_groups: taken.filter((i) => i.kind === 'signal').map((i) => i.data),
    execution_attention: {
      resolved_unread: taken.filter((i) => i.kind === 'execution_resolved').map((i) => i.data),
      open: taken.filter((i) => i.kind === 'execution_open').map((i) => i.data),
    },
    page: {
      max_bytes: maxBytes,
      max_items: MAX_ITEMS,
      returned_count: taken.length,
      returned_bytes: 0,
      has_more: hasMore,
      next_cursor: null,
      ...(hasMore ? {} : { ack_cursor: null }),
    },
  });
  const pageOf = (n: number) => {
    const body = render(items.slice(0, n), n < items.length);
    const zero = bytes(body);
    let size = zero;
    for (let d = 1; d <= 6; d++) if (String(zero - 1 + d).length === d) size = zero - 1 + d;
    body.page.returned_bytes = size;
    return { body, size };
  };
  let best = pageOf(0);
  if (best.size > maxBytes) return 'too_small';
  let n = 0;
  while (n < Math.min(items.length, MAX_ITEMS)) {
    const more = pageOf(n + 1);
    if (more.size > maxBytes) break;
    best = more;
    n++;
  }
  if (!n && items.length) return 'too_small';
  return { body: best.body, rest: items.slice(n) };
}

/**
 * HeartbeatService.pack finds the longest prefix of items that fits max_bytes by halving; it must
 * answer exactly what taking items one at a time answers (the same page, the same rest, the same
 * 413), for any items (multi-byte text included), any budget and any count around MAX_ITEMS.
 */
describe('heartbeat page packing', () => {
  const service = new (HeartbeatService as unknown as new (...deps: unknown[]) => HeartbeatService)(
    undefined,
    undefined,
    undefined,
    undefined,
    undefined,
    undefined,
  );
  const pack = (service as unknown as { pack: Pack }).pack.bind(service);

  const item = fc.record({
    kind: fc.constantFrom('execution_resolved' as const, 'execution_open' as const, 'attention' as const, 'signal' as const),
    key: fc.uuid(),
    fp: fc.constant('x'),
    data: fc.record({ id: fc.uuid(), title: fc.string({ unit: 'grapheme', maxLength: 400 }), n: fc.integer() }),
  });

  it('takes the same items as the one-at-a-time reference, or refuses (413) exactly when it does', () => {
    fc.assert(
      fc.property(
        fc.array(item, { maxLength: MAX_ITEMS + 5 }),
        fc.integer({ min: 1, max: 16_384 }),
        fc.string({ unit: 'grapheme', maxLength: 200 }),
        (items, maxBytes, name) => {
          const envelope = { agent: { name }, counts: { items: items.length } };
          const expected = linearPack(envelope, items, maxBytes);
          let actual: ReturnType<Pack> | 'too_small';
          try {
            actual = pack({ orgId: 'o', memberId: 'm' }, envelope, items, maxBytes, 'run', 1, false);
          } catch (e) {
            expect((e as { code?: string }).code).toBe('heartbeat_budget_too_small');
            actual = 'too_small';
          }
          expect(actual).toEqual(expected);
          if (actual !== 'too_small') expect(bytes(actual.body)).toBeLessThanOrEqual(maxBytes);
        },
      ),
      { numRuns: 400 },
    );
  });
});
