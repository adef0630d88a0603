// A small in-process cache with a short time-to-live, for lookups on the send path (API key →
// tenant, event_key → template). Writes made through this process clear it at once; changes made by
// another relay process are seen within the TTL. Bounded: when full it starts over.
export class ShortLivedCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();
  /** Reads under way (getOrLoad): the callers that miss together (every TTL, under load) share one. */
  private readonly loading = new Map<string, Promise<V | undefined>>();
  /** Bumped by clear: a read that began before a change must not refill the cache with the old value. */
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: V): void {
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { value, expiresAt: this.now() + this.ttlMs });
  }

  /**
   * The cached value, or `read`'s, shared by every caller that misses while it runs; kept (when not
   * undefined) unless the cache was cleared meanwhile.
   */
  getOrLoad<T extends V | undefined>(key: string, read: () => Promise<T>): Promise<T | V> {
    const cached = this.get(key);
    if (cached !== undefined) return Promise.resolve(cached);
    const pending = this.loading.get(key) as Promise<T> | undefined;
    if (pending) return pending;
    const generation = this.generation;
    const loaded = read().then((value) => {
      if (value !== undefined && generation === this.generation) this.set(key, value);
      return value;
    });
    this.loading.set(key, loaded);
    const done = () => {
      if (this.loading.get(key) === loaded) this.loading.delete(key);
    };
    loaded.then(done, done);
    return loaded;
  }

  clear(): void {
    this.generation += 1;
    this.loading.clear();
    this.entries.clear();
  }
}
