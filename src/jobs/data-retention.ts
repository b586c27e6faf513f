import type { Logger } from 'pino';
import { retentionCutoffs, type RetentionSettings } from '../domain/retention-policy.js';
import type { Store } from '../store/create-store.js';
import { createResultRollupsRepository } from '../store/result-rollups-repository.js';
import { createRetentionRepository } from '../store/retention-repository.js';
import { deleteAssetFiles, sweepOrphanAssets } from '../service/asset-files.js';
import { rollUpResults } from '../service/result-rollups.js';

/** How the data retention job runs. */
export interface DataRetentionOptions {
  store: Store;
  settings: RetentionSettings;
  /** Folder of run assets (config assetsDir): files of deleted results go with them. */
  assetsDir: string;
  logger: Logger;
  /** Time between passes; default 10 minutes. The first pass starts at once. */
  intervalMs?: number;
  /** Rows deleted per statement, so no pass holds locks or memory for long; default 1,000. */
  batchSize?: number;
  /** Asset files no result lists are deleted once older than this; default 24 hours. */
  orphanGraceMs?: number;
  /** Time between orphan sweeps (each reads every stored asset list); default 6 hours. */
  sweepIntervalMs?: number;
  now?: () => Date;
}

/** What one pass deleted, per kind of data, and the asset files it removed. */
export interface RetentionReport {
  results: number;
  testSessions: number;
  pings: number;
  alerts: number;
  errorGroups: number;
  subscriberNotifications: number;
  maintenanceReminders: number;
  deployments: number;
  auditLog: number;
  /** Ended console sessions, used or expired reset links, invitations accepted or expired a month ago. */
  signIns: number;
  hourlyRollups: number;
  dailyRollups: number;
  assetFiles: number;
  orphanFiles: number;
}

/** The background job that rolls results up and keeps every growing table and the assets folder to its retention. */
export interface DataRetention {
  /** Runs a pass now (joining one in progress). */
  pruneNow(): Promise<RetentionReport>;
  /** Stops the timer and waits for a pass in progress to finish. */
  close(): Promise<void>;
}

/** Days an accepted or expired invitation is kept (the members page lists expired ones meanwhile). */
const INVITATIONS_KEPT_DAYS = 30;

const emptyReport = (): RetentionReport => ({
  results: 0, testSessions: 0, pings: 0, alerts: 0, errorGroups: 0, subscriberNotifications: 0, maintenanceReminders: 0,
  deployments: 0, auditLog: 0, signIns: 0, hourlyRollups: 0, dailyRollups: 0, assetFiles: 0, orphanFiles: 0,
});

/**
 * Each pass first rolls closed hours of results up (so results are only pruned once counted),
 * then deletes what is past each table's cutoff (retentionCutoffs) in bounded batches, the asset
 * files of deleted runs after their rows, and now and then the orphan files. The timer is unref'd
 * so it never keeps the process alive; passes never overlap; several processes may run it (every
 * step is idempotent).
 */
export function createDataRetention({
  store, settings, assetsDir, logger, intervalMs = 600_000, batchSize = 1_000, orphanGraceMs = 86_400_000,
  sweepIntervalMs = 6 * 3_600_000, now = () => new Date(),
}: DataRetentionOptions): DataRetention {
  let running: Promise<RetentionReport> | null = null;
  let closed = false;
  let lastSweep = -Infinity;
  const retention = createRetentionRepository(store.db);
  const rollups = createResultRollupsRepository(store.db);

  /** Calls `step` until it deletes less than a batch (or the job closes); returns the total. */
  async function drain(step: () => Promise<number>): Promise<number> {
    let total = 0;
    while (!closed) {
      const n = await step();
      total += n;
      if (n < batchSize) break;
    }
    return total;
  }

  async function pass(): Promise<RetentionReport> {
    const report = emptyReport();
    const at = now();
    const watermarks = await rollUpResults(store.db, at);
    const cut = retentionCutoffs(settings, at, watermarks);
    if (cut.results) {
      for (const accountId of await retention.accountsWithResultsBefore(cut.results)) {
        report.results += await drain(async () => {
          const gone = await retention.deleteResults(accountId, cut.results!, batchSize);
          report.assetFiles += await deleteAssetFiles(assetsDir, gone, logger);
          return gone.length;
        });
      }
    }
    if (cut.testSessions) {
      report.testSessions = await drain(async () => {
        const ids = await retention.finishedTestSessionsBefore(cut.testSessions!, batchSize);
        if (ids.length === 0) return 0;
        const gone = await store.db.transaction((tx) => createRetentionRepository(tx).deleteTestSessions(ids));
        report.assetFiles += await deleteAssetFiles(assetsDir, gone, logger);
        return ids.length;
      });
    }
    if (cut.pings) report.pings = await drain(() => retention.deletePings(cut.pings!, batchSize));
    if (cut.alerts) report.alerts = await drain(() => retention.deleteAlerts(cut.alerts!, batchSize));
    if (cut.errorGroups) {
      report.errorGroups = await drain(() => retention.deleteErrorGroups('error_groups', cut.errorGroups!, batchSize))
        + await drain(() => retention.deleteErrorGroups('test_session_error_groups', cut.errorGroups!, batchSize));
    }
    if (cut.notifications) {
      report.subscriberNotifications = await drain(() => retention.deleteSubscriberNotifications(cut.notifications!, batchSize));
      report.maintenanceReminders = await drain(() => retention.deleteMaintenanceReminders(cut.notifications!, batchSize));
    }
    if (settings.deploymentsKept > 0) report.deployments = await drain(() => retention.deleteDeployments(settings.deploymentsKept, batchSize));
    if (cut.audit) report.auditLog = await drain(() => store.auditLog.deleteOlderThan(cut.audit!, batchSize));
    report.signIns = await drain(() => store.sessions.deleteExpired(batchSize)) + await drain(() => store.invitations.deleteStale(INVITATIONS_KEPT_DAYS, batchSize));
    if (cut.hourlyRollups) report.hourlyRollups = await drain(() => rollups.deleteOlderThan('hourly', cut.hourlyRollups!, batchSize));
    if (cut.dailyRollups) report.dailyRollups = await drain(() => rollups.deleteOlderThan('daily', cut.dailyRollups!, batchSize));
    if (!closed && at.getTime() - lastSweep >= sweepIntervalMs) {
      report.orphanFiles = await sweepOrphanAssets({ dir: assetsDir, retention, graceMs: orphanGraceMs, now: at, batchSize, logger });
      lastSweep = at.getTime();
    }
    if (Object.values(report).some((n) => n > 0)) logger.info({ ...report }, 'pruned old data');
    return report;
  }

  function pruneNow(): Promise<RetentionReport> {
    if (closed) return Promise.resolve(emptyReport());
    running ??= pass().finally(() => {
      running = null;
    });
    return running;
  }

  const tick = () => {
    pruneNow().catch((err) => logger.error({ err }, 'data retention pass failed'));
  };
  const first = setTimeout(tick, 0);
  const timer = setInterval(tick, intervalMs);
  first.unref();
  timer.unref();

  return {
    pruneNow,
    async close() {
      closed = true;
      clearTimeout(first);
      clearInterval(timer);
      await running?.catch(() => {});
    },
  };
}
