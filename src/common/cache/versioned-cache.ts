/**
 * A bounded in-process cache whose entries are valid only for the version they were stored at
 * (the caller reads the current version from the database first, so every process stays correct
 * on its own: a change anywhere bumps the version and the old entries are never served again).
 *
 * - Least recently used entries go first once `maxEntries` or `maxWeight` (the sum of `weigh`
 *   over the entries, e.g. characters) is exceeded; a single value heavier than `maxWeight / 8`
 *   is never kept.
 * - `maxAgeMs`: entries also expire by time (for results that depend on the clock), measured
 *   with `now` (default `Date.now`; pass the injected Clock's time so the age and the result's
 *   time-dependent rules read the same clock). An entry dated in the future of `now` (the clock
 *   moved back) counts as expired.
 * - `through`: read-through with one computation in flight per key and version; concurrent
 *   callers share it (so a burst of identical requests costs one computation).
 *
 * Values are shared between callers: treat them as immutable.
 */
export interface VersionedCacheOptions<T> {
  maxEntries: number;
  maxWeight?: number;
  weigh?: (value: T) => number;
  maxAgeMs?: number;
  /** Serve hits older than this but start their recomputation in the background (below maxAgeMs). */
  refreshAfterMs?: number;
  /** Milliseconds since the epoch, for entry ages (default Date.now). */
  now?: () => number;
}

interface Entry<T> {
  version: string;
  value: T;
  weight: number;
  at: number;
}

export class VersionedCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly flights = new Map<string, Promise<T>>();
  private readonly opts: Required<Omit<VersionedCacheOptions<T>, 'maxAgeMs' | 'refreshAfterMs'>> & { maxAgeMs?: number; refreshAfterMs?: number };
  private weight = 0;

  constructor(options: number | VersionedCacheOptions<T>) {
    const o = typeof options === 'number' ? { maxEntries: options } : options;
    this.opts = { maxWeight: Number.POSITIVE_INFINITY, weigh: () => 0, now: Date.now, ...o };
  }

  get(key: string, version: string): T | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    this.drop(key, e);
    if (e.version !== version || this.expired(e)) return undefined;
    this.entries.set(key, e); // most recently used last
    this.weight += e.weight;
    return e.value;
  }

  set(key: string, version: string, value: T, at = this.opts.now()): void {
    const old = this.entries.get(key);
    if (old) this.drop(key, old);
    const weight = this.opts.weigh(value);
    if (weight > this.opts.maxWeight / 8) return;
    this.entries.set(key, { version, value, weight, at });
    this.weight += weight;
    while (this.entries.size > this.opts.maxEntries || this.weight > this.opts.maxWeight) {
      const [k, e] = this.entries.entries().next().value as [string, Entry<T>];
      this.drop(k, e);
    }
  }

  /**
   * The kept value of `key` at `version`, or `compute()`'s (shared with concurrent callers, then
   * kept). With `refreshAfterMs`, a hit older than that is still served, and one computation at
   * the same version starts in the background to replace it before `maxAgeMs` runs out, so steady
   * readers never wait for an age-driven recomputation (a new version still waits: the kept
   * result is no longer the answer then).
   */
  through(key: string, version: string, compute: () => Promise<T>): Promise<T> {
    const hit = this.get(key, version);
    if (hit !== undefined) {
      const refreshAfter = this.opts.refreshAfterMs;
      if (refreshAfter !== undefined && this.opts.now() - this.entries.get(key)!.at > refreshAfter) {
        this.flight(key, version, compute).catch(() => undefined); // the next miss reports a failure
      }
      return Promise.resolve(hit);
    }
    return this.flight(key, version, compute);
  }

  private flight(key: string, version: string, compute: () => Promise<T>): Promise<T> {
    const flightKey = `${version}\u0000${key}`;
    let flight = this.flights.get(flightKey);
    if (!flight) {
      const started = this.opts.now(); // the age counts from before the computation read anything
      flight = compute()
        .then((value) => {
          // never replace a result that was computed later (e.g. at a newer version meanwhile)
          const current = this.entries.get(key);
          if (!current || current.at <= started) this.set(key, version, value, started);
          return value;
        })
        .finally(() => this.flights.delete(flightKey));
      this.flights.set(flightKey, flight);
    }
    return flight;
  }

  private expired(e: Entry<T>): boolean {
    if (this.opts.maxAgeMs === undefined) return false;
    const age = this.opts.now() - e.at;
    return age > this.opts.maxAgeMs || age < 0;
  }

  private drop(key: string, e: Entry<T>): void {
    this.entries.delete(key);
    this.weight -= e.weight;
  }
}
