/** Options of a try limiter. */
export interface TryLimiterOptions {
  /** Tries a key may make per window; the next one waits for the window's end. */
  max: number;
  /** How long a window lasts, from a key's first try in it. */
  windowMs: number;
  /** Keys remembered at most: the least recently tried are forgotten first (default 10,000). */
  maxKeys?: number;
  now?: () => number;
}

interface Window {
  count: number;
  endsAt: number;
}

/**
 * Counts tries per key (for a form: page and client address) in fixed windows, in this process's
 * memory, with a bounded number of keys so a flood of addresses cannot grow it. Unlike the route
 * rate limit its key is whatever the caller names, so a page on a custom domain (served before
 * routing) and a page's own lock (not every page's) are limited alike.
 */
export function createTryLimiter(options: TryLimiterOptions) {
  const { max, windowMs } = options;
  const maxKeys = options.maxKeys ?? 10_000;
  const now = options.now ?? Date.now;
  const windows = new Map<string, Window>();

  const open = (key: string): Window | undefined => {
    const w = windows.get(key);
    if (w && w.endsAt <= now()) {
      windows.delete(key);
      return undefined;
    }
    return w;
  };

  return {
    /** Seconds `key` must wait before its next try (rounded up), 0 when it may try now. */
    retryAfter(key: string): number {
      const w = open(key);
      return w && w.count >= max ? Math.max(1, Math.ceil((w.endsAt - now()) / 1000)) : 0;
    },

    /** Counts one try of `key`; true when that was its last one in this window. */
    count(key: string): boolean {
      const w = open(key) ?? { count: 0, endsAt: now() + windowMs };
      w.count += 1;
      windows.delete(key);
      windows.set(key, w);
      if (windows.size > maxKeys) windows.delete(windows.keys().next().value!);
      return w.count === max;
    },

    /** Keys remembered now (for tests and metrics). */
    get size(): number {
      return windows.size;
    },
  };
}
export type TryLimiter = ReturnType<typeof createTryLimiter>;
