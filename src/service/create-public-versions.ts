import type { EventBus } from '../events/event-bus.js';
import type { Store } from '../store/create-store.js';

/** Accounts whose version is remembered at most (each a few bytes). */
const MAX_ACCOUNTS = 10_000;

/** Options of createPublicVersions. */
export interface PublicVersionsOptions {
  store: Store;
  /** Where every write that moves a version says so (`publicContentChanged`); without it each get reads the store. */
  bus?: EventBus;
  /** How long a version is trusted without hearing of it again (default 1 s): the bound on a lost event. */
  maxAgeMs?: number;
  now?: () => number;
}

/**
 * The public content version of each account, which public pages read on every request to know
 * whether what they built is still current. Every write that moves a version publishes it after
 * its commit, before it answers; heard here, it is current on the next request in this process and
 * within the bus's delivery in another. The store is read again once a version is older than
 * maxAgeMs, so an event lost on the way (a Redis outage) delays a page by that much, never more.
 */
export function createPublicVersions(options: PublicVersionsOptions) {
  const { store, bus } = options;
  const maxAgeMs = bus ? options.maxAgeMs ?? 1_000 : 0;
  const now = options.now ?? Date.now;
  const known = new Map<string, { version: number; at: number }>();

  function learn(accountId: string, version: number): number {
    const previous = known.get(accountId);
    // Versions only grow: an older one (a read overtaken by an event) never replaces a newer.
    const latest = previous && previous.version > version ? previous.version : version;
    known.delete(accountId);
    known.set(accountId, { version: latest, at: now() });
    if (known.size > MAX_ACCOUNTS) known.delete(known.keys().next().value!);
    return latest;
  }

  const unsubscribe = bus?.subscribe('publicContentChanged', (event) => void learn(event.accountId, event.version));

  return {
    /** The account's current version (0 before its first public write). */
    async get(accountId: string): Promise<number> {
      const cached = known.get(accountId);
      if (cached && now() - cached.at < maxAgeMs) return cached.version;
      return learn(accountId, await store.publicContentVersions.get(accountId));
    },
    close(): void {
      unsubscribe?.();
      known.clear();
    },
  };
}
export type PublicVersions = ReturnType<typeof createPublicVersions>;
