/** The cache interface Apollo Server's automatic persisted queries use (KeyValueCache of @apollo/utils.keyvaluecache). */
export interface StringCache {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, options?: { ttl?: number | null }): Promise<void>;
  delete(key: string): Promise<boolean | void>;
}

/**
 * An in-memory least-recently-used cache holding at most `maxChars` characters of keys and values
 * together (a value larger than that is not kept). Bounds the memory automatic persisted queries take,
 * whatever clients register. Entries have no time limit; the least recently used go first.
 */
export function createBoundedCache(maxChars: number): StringCache & { readonly size: number; readonly chars: number } {
  const entries = new Map<string, string>();
  let chars = 0;
  const remove = (key: string) => {
    const old = entries.get(key);
    if (old === undefined) return false;
    entries.delete(key);
    chars -= key.length + old.length;
    return true;
  };
  return {
    async get(key) {
      const value = entries.get(key);
      if (value !== undefined) {
        // Map order is insertion order: re-inserting makes it the most recently used.
        entries.delete(key);
        entries.set(key, value);
      }
      return value;
    },
    async set(key, value) {
      remove(key);
      const size = key.length + value.length;
      if (size > maxChars) return;
      for (const oldest of entries.keys()) {
        if (chars + size <= maxChars) break;
        remove(oldest);
      }
      entries.set(key, value);
      chars += size;
    },
    async delete(key) {
      return remove(key);
    },
    get size() {
      return entries.size;
    },
    get chars() {
      return chars;
    },
  };
}
