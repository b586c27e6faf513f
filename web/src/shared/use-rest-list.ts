import { useCallback, useEffect, useState } from 'react';
import { refusalText } from '../shared/refusal-text.js';
import { useRest } from '../shell/rest-context.js';

/** A REST list read as the signed-in caller: its items once read, why not, and `reload()` after a change. */
export interface RestList<T> {
  items: T[] | null;
  error: string | null;
  reload(): void;
}

/** Reads `path` and turns its body into items with `read`; re-read on reload(). */
export function useRestList<T>(path: string, read: (body: unknown) => T[]): RestList<T> {
  const rest = useRest();
  const [items, setItems] = useState<T[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let cancelled = false;
    void rest('GET', path).then((answer) => {
      if (cancelled) return;
      if (answer.ok) {
        setItems(read(answer.body));
        setError(null);
      } else setError(refusalText(answer));
    });
    return () => {
      cancelled = true;
    };
    // `read` is a module-level function of each caller: stable, so not a dependency.
  }, [rest, path, version]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { items, error, reload };
}
