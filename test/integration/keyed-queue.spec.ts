import { KeyedQueue } from '../../src/common/concurrency/keyed-queue';

/** Deferred promise: the test decides when a task finishes. */
const gate = () => {
  let open!: () => void;
  const p = new Promise<void>((r) => (open = r));
  return { p, open };
};

describe('KeyedQueue (claims of one issue, one after another per process)', () => {
  it('runs one key in order, tells a task it waited, and lets other keys through meanwhile', async () => {
    const q = new KeyedQueue();
    const log: string[] = [];
    const g1 = gate();
    const a = q.run('k', async (waited) => {
      log.push(`a start ${waited}`);
      await g1.p;
      log.push('a end');
      return 'a';
    });
    const b = q.run('k', async (waited) => {
      log.push(`b start ${waited}`);
      return 'b';
    });
    const other = await q.run('other', async (waited) => {
      log.push(`other ${waited}`);
      return 'other';
    });
    expect(other).toBe('other');
    // b has not started while a holds the key
    expect(log).toEqual(['a start false', 'other false']);
    g1.open();
    expect(await Promise.all([a, b])).toEqual(['a', 'b']);
    expect(log).toEqual(['a start false', 'other false', 'a end', 'b start true']);
    expect(q.size).toBe(0);
  });

  it('a failing task releases the next one and forgets the key', async () => {
    const q = new KeyedQueue();
    const first = q.run('k', () => Promise.reject(new Error('boom')));
    const second = q.run('k', (waited) => Promise.resolve(waited));
    await expect(first).rejects.toThrow('boom');
    await expect(second).resolves.toBe(true);
    expect(q.size).toBe(0);
    await expect(q.run('k', (waited) => Promise.resolve(waited))).resolves.toBe(false);
  });
});
