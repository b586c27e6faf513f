import type { Logger } from 'pino';
import type { EventBus } from '../events/event-bus.js';
import type { Store } from '../store/create-store.js';
import type { Repositories } from '../store/repositories.js';

/** What a maintenance write changed, for the events after commit; null when it changed nothing. */
export type MaintenanceChange = {
  accountId: string;
  maintenanceWindowId: number;
  /** The maintenance written; null for a write of the window itself. */
  maintenanceId: string | null;
  /** The REST shape of what was written (the maintenance, or else the window); null once deleted. */
  maintenance: Record<string, any> | null;
} | null;

/** Runs maintenance writes bound to a store and a bus. */
export type MaintenanceWrite = <T>(write: (tx: Repositories) => Promise<T>, change: (result: T) => MaintenanceChange | MaintenanceChange[]) => Promise<T>;

/**
 * Maintenance writes: `write` runs in a transaction that also moves the public content version of
 * each account it changed on (a maintenance is public: status pages show it); after commit,
 * `maintenanceUpdated` (which re-arms every maintenance clock) and `publicContentChanged` (subject
 * `maintenance`, the window's id) go on the bus. A bus failure after commit is logged, never an
 * error: pages stay right through the version counter, and clocks look again within a minute.
 */
export function createMaintenanceWrite({ store, bus, logger }: { store: Store; bus?: EventBus; logger?: Logger }): MaintenanceWrite {
  return async (write, change) => {
    const { result, published } = await store.transaction(async (tx) => {
      const result = await write(tx);
      const changes = [change(result)].flat().filter((c): c is NonNullable<MaintenanceChange> => c !== null);
      const published: { change: NonNullable<MaintenanceChange>; version: number }[] = [];
      for (const c of changes) published.push({ change: c, version: await tx.publicContentVersions.bump(c.accountId) });
      return { result, published };
    });
    if (bus) {
      for (const { change: c, version } of published) {
        try {
          await bus.publish({ type: 'maintenanceUpdated', ...c });
          await bus.publish({ type: 'publicContentChanged', accountId: c.accountId, version, subject: 'maintenance', subjectId: String(c.maintenanceWindowId) });
        } catch (err) {
          logger?.warn({ err, accountId: c.accountId, maintenanceWindowId: c.maintenanceWindowId }, 'maintenance windows: could not publish a change');
        }
      }
    }
    return result;
  };
}
