import { checkMaintenance, type CheckMaintenance } from '../domain/check-maintenance.js';
import type { Store } from '../store/create-store.js';

/** Options of the check maintenance service. */
export interface CheckMaintenanceServiceOptions {
  store: Store;
  /** The clock maintenances are judged against (tests); the system clock by default. */
  now?: () => Date;
}

/** A check's maintenance on the wire (`CheckMaintenanceState`). */
export interface CheckMaintenanceView {
  checkId: string;
  maintenance: {
    state: CheckMaintenance['state'];
    maintenanceWindowId: number;
    maintenanceWindowName: string;
    maintenanceId: string;
    startsAt: string;
    endsAt: string;
    paused: boolean;
  } | null;
}

const toView = (checkId: string, m: CheckMaintenance | null): CheckMaintenanceView => ({
  checkId,
  maintenance: m && {
    state: m.state, maintenanceWindowId: m.windowId, maintenanceWindowName: m.windowName, maintenanceId: m.maintenanceId,
    startsAt: m.startsAt.toISOString(), endsAt: m.endsAt.toISOString(), paused: m.paused,
  },
});

/**
 * Which maintenance concerns each check now, by the rules alerting and the scheduler apply
 * (check-maintenance.ts): one read of the account's windows, whatever the number of checks.
 */
export function createCheckMaintenanceService({ store, now = () => new Date() }: CheckMaintenanceServiceOptions) {
  return {
    /** The maintenance of each of the account's checks among `checkIds`, in the order asked, each once; other ids are left out. */
    async of(accountId: string, checkIds: readonly string[]): Promise<CheckMaintenanceView[]> {
      const ids = [...new Set(checkIds.map((id) => id.toLowerCase()))];
      const at = now();
      const [checks, windows] = await Promise.all([store.checks.tagsOf(accountId, ids), store.activeMaintenances.coveringOf(accountId, at)]);
      const tagsById = new Map(checks.map((c) => [c.id, c.tags]));
      return ids.flatMap((id) => {
        const tags = tagsById.get(id);
        return tags ? [toView(id, checkMaintenance(windows, tags, at))] : [];
      });
    },
  };
}
export type CheckMaintenanceService = ReturnType<typeof createCheckMaintenanceService>;
