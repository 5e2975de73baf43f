/** What one bounded sweep of a durable cleanup queue did. */
export interface SweepResult {
  removed: number;
  failed: number;
}

/**
 * Runs `sweep(batch)` until a batch finds fewer than `batch` due rows or one fails, at most
 * `maxBatches` times (the worker's cleanup jobs: storage deletions, avatar cleanups).
 */
export async function sweepInBatches(sweep: (batch: number) => Promise<SweepResult>, batch = 100, maxBatches = 50): Promise<SweepResult> {
  const total = { removed: 0, failed: 0 };
  for (let i = 0; i < maxBatches; i++) {
    const r = await sweep(batch);
    total.removed += r.removed;
    total.failed += r.failed;
    if (r.removed + r.failed < batch || r.failed) break;
  }
  return total;
}
