import type { Logger } from 'pino';
import type { EventBus } from '../events/event-bus.js';
import type { PublicContentChangedEvent } from '../events/lookout-event.js';
import type { Store } from '../store/create-store.js';
import type { Repositories } from '../store/repositories.js';

/** What a public write changed: the event subject and id, or null when it changed nothing after all. */
export type PublicChange = { subject: PublicContentChangedEvent['subject']; subjectId: string } | null;

/** A write of something a public page shows, bound to a store and a bus. */
export type PublicWrite = <T>(accountId: string, write: (tx: Repositories) => Promise<T>, change: (result: T) => PublicChange) => Promise<T>;

/**
 * Runs public writes: `write` in a transaction that also moves the account's public content version
 * on (unless `change` says nothing changed); after commit, `publicContentChanged` goes on the bus.
 * A bus failure after commit is logged, never turned into an error: pages stay right through the
 * version counter, only live pushes are missed.
 */
export function createPublicWrite({ store, bus, logger }: { store: Store; bus?: EventBus; logger?: Logger }): PublicWrite {
  return async (accountId, write, change) => {
    const { result, version, changed } = await store.transaction(async (tx) => {
      const result = await write(tx);
      const changed = change(result);
      return { result, changed, version: changed ? await tx.publicContentVersions.bump(accountId) : 0 };
    });
    if (changed && bus) {
      await bus.publish({ type: 'publicContentChanged', accountId, version, ...changed })
        .catch((err) => logger?.warn({ err, accountId, ...changed }, 'status pages: could not publish a change'));
    }
    return result;
  };
}
