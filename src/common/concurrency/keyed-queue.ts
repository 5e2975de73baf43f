/**
 * Runs tasks one after another per key within this process (tasks of other keys run freely). For
 * work that a database lock serializes across processes, where waiting for that lock would hold a
 * pooled connection: the process's own contenders wait here without one, so a burst on one key
 * cannot take the whole pool, and only one task per key and process waits on the database lock
 * (which still orders processes). A task learns whether it waited behind another (`waited`), so it
 * can look again at what the one before it did.
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, task: (waited: boolean) => Promise<T>): Promise<T> {
    const before = this.tails.get(key);
    let release!: () => void;
    const done = new Promise<void>((r) => (release = r));
    const tail = before ? before.then(() => done) : done;
    this.tails.set(key, tail);
    try {
      if (before) await before;
      return await task(before !== undefined);
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** Keys with a task running or waiting (for tests). */
  get size(): number {
    return this.tails.size;
  }
}
