/** What the server told us about a statement when it was parsed under a name. */
export interface PreparedStatement {
  /** Server-side name, unique for the connection's lifetime. */
  readonly name: string;
  /** Type oids of `$1..$n`, to serialise the parameters as the server expects them. */
  readonly paramTypes: readonly number[];
  /** Result columns with their type oids; empty for statements returning no rows. */
  readonly fields: ReadonlyArray<{ readonly name: string; readonly dataTypeID: number }>;
}

/**
 * Named statements of one connection, by SQL text, least recently used first. Evicted statements
 * are handed back by `takeClosable` so the caller closes them on the server before parsing more.
 */
export interface StatementCache {
  get(sql: string): PreparedStatement | undefined;
  /** Evicts the least recently used statements until one more fits: call before parsing one. */
  makeRoom(): void;
  /** Remembers a statement just parsed (evicting if `makeRoom` was not called). */
  add(sql: string, statement: PreparedStatement): void;
  /** Forgets a statement the server no longer accepts (e.g. its result type changed). */
  drop(sql: string): void;
  /** A fresh statement name. */
  nextName(): string;
  /** Names to close on the server; the list empties once taken. */
  takeClosable(): string[];
  readonly size: number;
}

/** A bounded LRU of named statements (`capacity` per connection). */
export function createStatementCache(capacity: number): StatementCache {
  const byText = new Map<string, PreparedStatement>();
  let closable: string[] = [];
  let counter = 0;
  function evictDownTo(size: number): void {
    while (byText.size > Math.max(0, size)) {
      const [oldest, evicted] = byText.entries().next().value as [string, PreparedStatement];
      byText.delete(oldest);
      closable.push(evicted.name);
    }
  }
  return {
    get(sql) {
      const found = byText.get(sql);
      if (found) {
        // Map iteration order is insertion order: re-inserting makes it the most recently used.
        byText.delete(sql);
        byText.set(sql, found);
      }
      return found;
    },
    makeRoom() {
      evictDownTo(capacity - 1);
    },
    add(sql, statement) {
      byText.set(sql, statement);
      evictDownTo(capacity);
    },
    drop(sql) {
      const found = byText.get(sql);
      if (!found) return;
      byText.delete(sql);
      closable.push(found.name);
    },
    nextName() {
      return `lookout_${++counter}`;
    },
    takeClosable() {
      const names = closable;
      closable = [];
      return names;
    },
    get size() {
      return byText.size;
    },
  };
}
