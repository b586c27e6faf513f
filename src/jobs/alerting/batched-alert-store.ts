import DataLoader from 'dataloader';
import type { AccountRow } from '../../store/accounts-repository.js';
import type { AlertStateRecord } from '../../store/alert-states-repository.js';
import type { CheckRow } from '../../store/checks-repository.js';
import type { GroupRow } from '../../store/check-groups-repository.js';
import type { Store } from '../../store/create-store.js';
import type { ResultRow } from '../../store/results-repository.js';

/** A loader that batches the loads of one turn of the event loop and keeps nothing after it. */
function batching<K, V>(load: (keys: readonly K[]) => Promise<V[]>): DataLoader<K, V> {
  return new DataLoader<K, V>(async (keys) => load(keys), { cache: false });
}

/** Answers in the order of `keys`, matched by `keyOf`; undefined where nothing was found. */
function inOrder<K, R>(keys: readonly K[], rows: readonly R[], keyOfKey: (k: K) => string, keyOfRow: (r: R) => string): (R | undefined)[] {
  const byKey = new Map(rows.map((r) => [keyOfRow(r), r]));
  return keys.map((k) => byKey.get(keyOfKey(k)));
}

/**
 * The store as alerting judges FINAL runs with: the reads of a run that changes nothing (its
 * check, group, account, result and alert state) and the removal of its outbox row are batched
 * across the runs judged together, a page of the outbox being handed on at once. Most runs change
 * nothing, and one statement of each kind per page instead of six per run is most of what alerting
 * costs a busy server. Nothing is cached past the batch; locking reads and every write that moves a
 * state stay in their transactions, unbatched.
 */
export function batchedAlertStore(store: Store): Store {
  const checks = batching<{ accountId: string; id: string }, CheckRow | undefined>(async (keys) =>
    inOrder(keys, await store.checks.getByKeys(keys), (k) => `${k.accountId}|${k.id}`, (r) => `${r.account_id}|${r.id}`));
  const groups = batching<{ accountId: string; id: number }, GroupRow | undefined>(async (keys) =>
    inOrder(keys, await store.groups.getByKeys(keys), (k) => `${k.accountId}|${k.id}`, (r) => `${r.account_id}|${r.id}`));
  const accounts = batching<string, AccountRow | undefined>(async (ids) => inOrder(ids, await store.accounts.getMany(ids), (k) => k, (r) => r.id));
  const results = batching<{ accountId: string; checkId: string; id: string }, ResultRow | undefined>(async (keys) =>
    inOrder(keys, await store.results.getByKeys(keys), (k) => `${k.accountId}|${k.checkId}|${k.id}`, (r) => `${r.account_id}|${r.check_id}|${r.id}`));
  const alertStates = batching<{ accountId: string; checkId: string }, AlertStateRecord | undefined>(async (keys) => {
    const found = await store.alertStates.getMany(keys);
    return keys.map((k) => found.get(k.checkId));
  });
  const removals = batching<string, boolean>(async (ids) => {
    const removed = await store.alertOutbox.removeEach(ids);
    return ids.map((id) => removed.has(id));
  });
  return {
    ...store,
    checks: { ...store.checks, get: (accountId, id, columns) => (columns ? store.checks.get(accountId, id, columns) : checks.load({ accountId, id })) },
    groups: { ...store.groups, get: (accountId, id) => groups.load({ accountId, id }) },
    accounts: { ...store.accounts, get: (id) => accounts.load(id) },
    results: { ...store.results, get: (accountId, checkId, id) => results.load({ accountId, checkId, id }) },
    alertStates: {
      ...store.alertStates,
      get: (accountId, checkId, opts) => (opts?.forUpdate ? store.alertStates.get(accountId, checkId, opts) : alertStates.load({ accountId, checkId })),
    },
    alertOutbox: { ...store.alertOutbox, remove: async (ids) => (await Promise.all(ids.map((id) => removals.load(id)))).filter(Boolean).length },
  };
}
