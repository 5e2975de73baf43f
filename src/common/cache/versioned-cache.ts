/**
 * A bounded in-process cache whose entries are valid only for the version they were stored at
 * (the caller reads the current version from the database first, so every process stays correct
 * on its own: a change anywhere bumps the version and the old entries are never served again).
 * Least recently used entries go first once `max` is reached.
 */
export class VersionedCache<T> {
  private readonly entries = new Map<string, { version: string; value: T }>();

  constructor(private readonly max: number) {}

  get(key: string, version: string): T | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    this.entries.delete(key);
    if (e.version !== version) return undefined;
    this.entries.set(key, e); // most recently used last
    return e.value;
  }

  set(key: string, version: string, value: T): void {
    this.entries.delete(key);
    this.entries.set(key, { version, value });
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value as string);
  }
}
