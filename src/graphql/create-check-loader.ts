import DataLoader from 'dataloader';
import { isUuid } from './global-id.js';
import { loadByIds } from './load-by-ids.js';
import type { RestSession } from './rest-client.js';
import type { RestCheck } from './rest-types.js';

/**
 * Checks by REST UUID for one operation, whole or with only some REST fields (`fields=`). A check
 * already loaded (or primed) with every field asked for answers without a call, whichever selection
 * loaded it; otherwise keys of one tick share one call, asking for the union of their fields.
 */
export interface CheckLoader {
  /**
   * The check `id` holding at least `fields` (a REST `fields=` value, see rest-check-fields.ts;
   * undefined: the whole check); null when unknown or of another account.
   */
  load(id: string, fields?: string): Promise<RestCheck | null>;
  /** Remembers a check read elsewhere (a list page, a mutation's answer), holding `fields` (undefined: whole). */
  prime(id: string, check: RestCheck, fields?: string): CheckLoader;
  /** Forgets what is known of check `id` (it was changed). */
  clear(id: string): CheckLoader;
}

interface Held {
  /** Fields the check holds; null: all of them. */
  fields: ReadonlySet<string> | null;
  check: Promise<RestCheck | null>;
}

const fieldSet = (fields: string | undefined): ReadonlySet<string> | null => (fields === undefined ? null : new Set(fields.split(',')));

function holds(held: Held, wanted: ReadonlySet<string> | null): boolean {
  if (held.fields === null) return true;
  if (wanted === null) return false;
  for (const f of wanted) if (!held.fields.has(f)) return false;
  return true;
}

/** A CheckLoader over `GET /v1/checks?ids=…[&fields=…]` (one call per 100 checks and field union). */
export function createCheckLoader(rest: RestSession): CheckLoader {
  const known = new Map<string, Held[]>();
  // The DataLoader only batches: what was loaded is remembered in `known`, which also serves subsets.
  // Whole and sparse keys of one tick share a call: a whole one makes it ask for whole checks.
  const batch = new DataLoader<{ id: string; fields: ReadonlySet<string> | null }, RestCheck | null>(
    (keys) => {
      const ids = keys.map((k) => k.id);
      if (keys.some((k) => k.fields === null)) return loadByIds<string, RestCheck>(rest, '/v1/checks', ids, isUuid);
      // A key may get more fields than it asked for, never fewer.
      const fields = [...new Set(keys.flatMap((k) => [...k.fields!]))].sort().join(',');
      return loadByIds<string, RestCheck>(rest, '/v1/checks', ids, isUuid, { fields });
    },
    { maxBatchSize: 100, cache: false },
  );
  const remember = (id: string, held: Held) => {
    const list = known.get(id);
    if (list) list.push(held);
    else known.set(id, [held]);
  };
  const loader: CheckLoader = {
    load(id, fields) {
      const wanted = fieldSet(fields);
      const found = known.get(id)?.find((held) => holds(held, wanted));
      if (found) return found.check;
      const check = batch.load({ id, fields: wanted });
      remember(id, { fields: wanted, check });
      return check;
    },
    prime(id, check, fields) {
      remember(id, { fields: fieldSet(fields), check: Promise.resolve(check) });
      return loader;
    },
    clear(id) {
      known.delete(id);
      return loader;
    },
  };
  return loader;
}
