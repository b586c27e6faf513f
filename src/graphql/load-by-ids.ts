import { RestError } from './errors.js';
import type { RestSession } from './rest-client.js';

type Keyed = { id: string | number };

/**
 * Loads `keys` through `GET <listPath>?ids=a,b&limit=100`. Backends without the `ids` filter either
 * reject it with 400 or ignore it (their answer then holds ids not asked for); either way the path is
 * remembered for this backend and items are fetched with concurrent single GETs from then on.
 * A single GET answering 404 gives null (unknown, or another account's id).
 */
export async function loadByIds<K extends string | number, V extends Keyed>(
  rest: RestSession,
  listPath: string,
  keys: readonly K[],
  valid: (key: K) => boolean,
  query: Record<string, string> = {},
): Promise<(V | null | Error)[]> {
  const wanted = [...new Set(keys.filter(valid))];
  if (wanted.length === 0) return keys.map(() => null);
  const found = new Map<string, V>();
  let batched = false;
  // One key: the item route answers it with one read, where the list route also counts the matches.
  if (wanted.length > 1 && !rest.idsUnsupported.has(listPath)) {
    try {
      const res = await rest.get<V[]>(listPath, { ...query, ids: wanted.join(','), limit: 100 });
      const asked = new Set(wanted.map(String));
      if (Array.isArray(res.body) && res.body.every((item) => asked.has(String(item.id)))) {
        for (const item of res.body) found.set(String(item.id), item);
        batched = true;
      } else {
        rest.idsUnsupported.add(listPath);
      }
    } catch (err) {
      if (!(err instanceof RestError && err.status === 400)) throw err;
      rest.idsUnsupported.add(listPath);
    }
  }
  if (!batched) {
    const singles = await Promise.all(wanted.map(async (key) => {
      try {
        return (await rest.get<V>(`${listPath}/${encodeURIComponent(String(key))}`, query)).body;
      } catch (err) {
        if (err instanceof RestError && err.status === 404) return null;
        return err as Error;
      }
    }));
    const failures = new Map<string, Error>();
    wanted.forEach((key, i) => {
      const r = singles[i];
      if (r instanceof Error) failures.set(String(key), r);
      else if (r) found.set(String(key), r);
    });
    return keys.map((k) => failures.get(String(k)) ?? found.get(String(k)) ?? null);
  }
  return keys.map((k) => found.get(String(k)) ?? null);
}
