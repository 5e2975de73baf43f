/**
 * Runs `step` (one batch of at most `size` rows: a bounded DELETE or UPDATE) until a batch comes
 * back short, at most `max` times; answers the rows touched. The worker's clean-up sweeps use it,
 * so one run does a bounded amount of work and the next run picks up the rest.
 */
export async function batches(size: number, max: number, step: (n: number) => Promise<number>): Promise<number> {
  let total = 0;
  for (let b = 0; b < max; b++) {
    const n = await step(size);
    total += n;
    if (n < size) break;
  }
  return total;
}
