import type { Queryable } from './db.js';

/** The jobAssets of a result's stored detail (`col`), in the shape assetFilesOf reads, and nothing else of it. */
const assetsOf = (col: string) => `jsonb_build_object(
  'browserCheckResult', jsonb_build_object('jobAssets', ${col}->'browserCheckResult'->'jobAssets'),
  'multiStepCheckResult', jsonb_build_object('jobAssets', ${col}->'multiStepCheckResult'->'jobAssets'),
  'agenticCheckResult', jsonb_build_object('jobAssets', ${col}->'agenticCheckResult'->'jobAssets')) AS assets`;

/** Every jobAssets entry of `col` as rows (`a`), whatever the shape of the parts. */
const assetEntries = (col: string) => `jsonb_array_elements(
  (CASE WHEN jsonb_typeof(${col}->'browserCheckResult'->'jobAssets') = 'array' THEN ${col}->'browserCheckResult'->'jobAssets' ELSE '[]'::jsonb END)
  || (CASE WHEN jsonb_typeof(${col}->'multiStepCheckResult'->'jobAssets') = 'array' THEN ${col}->'multiStepCheckResult'->'jobAssets' ELSE '[]'::jsonb END)
  || (CASE WHEN jsonb_typeof(${col}->'agenticCheckResult'->'jobAssets') = 'array' THEN ${col}->'agenticCheckResult'->'jobAssets' ELSE '[]'::jsonb END)) a`;

type AssetRow = { assets: unknown };

const count = async (rows: Promise<unknown[]>) => (await rows).length;

/**
 * Bounded deletes of old rows of every growing table, each skipping the rows something still needs.
 * Each call deletes at most `batchSize` rows (oldest first) and says how many it deleted, so a
 * caller loops until fewer come back. Deletes of results hand back the assets of what went, for
 * the caller to delete the files once the rows are gone for good.
 */
export function createRetentionRepository(db: Queryable) {
  return {
    /** Accounts holding monitoring results that started before `before`. */
    async accountsWithResultsBefore(before: Date): Promise<string[]> {
      const rows = await db.query<{ id: string }>(
        `SELECT a.id FROM accounts a
         WHERE EXISTS (SELECT 1 FROM check_results r WHERE r.account_id = a.id AND r.started_at < $1 AND r.test_session_id IS NULL) ORDER BY a.id`,
        [before],
      );
      return rows.map((r) => r.id);
    },

    /**
     * Deletes a batch of the account's oldest monitoring results that started before `before`,
     * keeping each check's latest result; returns the assets of the deleted ones.
     */
    async deleteResults(accountId: string, before: Date, batchSize: number): Promise<AssetRow[]> {
      return db.query<AssetRow>(
        `WITH doomed AS (
           SELECT id FROM check_results r
           WHERE account_id = $1 AND started_at < $2 AND test_session_id IS NULL
             AND EXISTS (SELECT 1 FROM check_results n WHERE n.check_id = r.check_id AND n.test_session_id IS NULL
                           AND (n.started_at, n.id) > (r.started_at, r.id))
           ORDER BY started_at LIMIT $3
         )
         DELETE FROM check_results r USING doomed WHERE r.id = doomed.id AND r.account_id = $1 RETURNING ${assetsOf('r.detail')}`,
        [accountId, before, batchSize],
      );
    },

    /** The assets of every result of a check (before the check is deleted, results and all). */
    async assetsOfCheck(accountId: string, checkId: string): Promise<AssetRow[]> {
      return db.query<AssetRow>(
        `SELECT ${assetsOf('detail')} FROM check_results
         WHERE account_id = $1 AND check_id = $2
           AND (jsonb_typeof(detail->'browserCheckResult') = 'object' OR jsonb_typeof(detail->'multiStepCheckResult') = 'object'
                OR jsonb_typeof(detail->'agenticCheckResult') = 'object')`,
        [accountId, checkId],
      );
    },

    /** Ids of up to `batchSize` finished test sessions created before `before` (pending and running ones stay). */
    async finishedTestSessionsBefore(before: Date, batchSize: number): Promise<string[]> {
      const rows = await db.query<{ id: string }>(
        `SELECT id FROM test_sessions WHERE created_at < $1 AND status NOT IN ('PENDING', 'RUNNING') ORDER BY created_at LIMIT $2`,
        [before, batchSize],
      );
      return rows.map((r) => r.id);
    },

    /** Deletes test sessions with their runs (stored results and submitted-check results); returns the runs' assets. */
    async deleteTestSessions(ids: string[]): Promise<AssetRow[]> {
      const results = await db.query<AssetRow>(
        `DELETE FROM check_results WHERE test_session_id = ANY($1::uuid[]) RETURNING ${assetsOf('detail')}`, [ids],
      );
      const runs = await db.query<AssetRow>(
        `DELETE FROM test_session_run_results WHERE test_session_id = ANY($1::uuid[]) RETURNING ${assetsOf('result')}`, [ids],
      );
      await db.query('DELETE FROM test_sessions WHERE id = ANY($1::uuid[])', [ids]);
      return [...results, ...runs];
    },

    /** Deletes a batch of pings received before `before`, keeping each check's latest ping that is not a start (its deadline runs from it). */
    deletePings: (before: Date, batchSize: number) => count(db.query(
      `DELETE FROM heartbeat_pings WHERE id IN (
         SELECT id FROM heartbeat_pings p WHERE received_at < $1
           AND (kind = 'start' OR EXISTS (SELECT 1 FROM heartbeat_pings n WHERE n.check_id = p.check_id AND n.kind <> 'start'
                                            AND (n.received_at, n.id) > (p.received_at, p.id)))
         ORDER BY received_at LIMIT $2
       ) RETURNING 1`,
      [before, batchSize],
    )),

    /**
     * Deletes a batch of alerts raised before `before` with their delivery attempts, keeping the
     * latest alert of each check's state machine (reminders repeat it) and alerts with a delivery
     * still pending.
     */
    deleteAlerts: (before: Date, batchSize: number) => count(db.query(
      `DELETE FROM check_alerts WHERE id IN (
         SELECT id FROM check_alerts a WHERE created_at < $1
           AND NOT EXISTS (SELECT 1 FROM check_alert_states s WHERE s.last_alert_id = a.id)
           AND NOT EXISTS (SELECT 1 FROM alert_notifications n WHERE n.alert_id = a.id AND n.status = 'PENDING')
         ORDER BY created_at LIMIT $2
       ) RETURNING 1`,
      [before, batchSize],
    )),

    /** Deletes a batch of error groups (of checks, or of test sessions) last seen before `before`; archived-for-ever ones stay silenced. */
    deleteErrorGroups: (table: 'error_groups' | 'test_session_error_groups', before: Date, batchSize: number) => count(db.query(
      `DELETE FROM ${table} WHERE id IN (
         SELECT id FROM ${table} WHERE last_seen < $1 AND NOT archived_forever ORDER BY last_seen LIMIT $2
       ) RETURNING 1`,
      [before, batchSize],
    )),

    /** Deletes a batch of fanned-out subscriber notifications created before `before` with their deliveries, unless a delivery is still pending. */
    deleteSubscriberNotifications: (before: Date, batchSize: number) => count(db.query(
      `DELETE FROM subscriber_notifications WHERE id IN (
         SELECT id FROM subscriber_notifications s WHERE created_at < $1 AND status <> 'PENDING'
           AND NOT EXISTS (SELECT 1 FROM subscriber_deliveries d WHERE d.notification_id = s.id AND d.status = 'PENDING')
         ORDER BY created_at LIMIT $2
       ) RETURNING 1`,
      [before, batchSize],
    )),

    /** Deletes a batch of reminders of maintenance starts before `before` that were sent or superseded (an unsent one may still be due). */
    deleteMaintenanceReminders: (before: Date, batchSize: number) => count(db.query(
      `DELETE FROM maintenance_reminders WHERE id IN (
         SELECT id FROM maintenance_reminders WHERE starts_at < $1 AND (notified_at IS NOT NULL OR superseded)
         ORDER BY starts_at LIMIT $2
       ) RETURNING 1`,
      [before, batchSize],
    )),

    /** Deletes a batch of deployments past the newest `kept` of their project (by account and logical id); a running one stays. */
    deleteDeployments: (kept: number, batchSize: number) => count(db.query(
      `DELETE FROM deployments WHERE id IN (
         SELECT id FROM (
           SELECT id, status, row_number() OVER (PARTITION BY account_id, project_logical_id ORDER BY created_at DESC, id DESC) AS rn
           FROM deployments
         ) d WHERE rn > $1 AND status <> 'RUNNING' LIMIT $2
       ) RETURNING 1`,
      [kept, batchSize],
    )),

    /** Which of `files` a stored result or a test session run still lists in its jobAssets. */
    async referencedAssetFiles(files: string[]): Promise<Set<string>> {
      if (files.length === 0) return new Set();
      const rows = await db.query<{ file: string }>(
        `SELECT a->>'file' AS file FROM check_results r CROSS JOIN LATERAL ${assetEntries('r.detail')}
         WHERE jsonb_typeof(a) = 'object' AND a->>'file' = ANY($1::text[])
         UNION
         SELECT a->>'file' AS file FROM test_session_run_results x CROSS JOIN LATERAL ${assetEntries('x.result')}
         WHERE jsonb_typeof(a) = 'object' AND a->>'file' = ANY($1::text[])`,
        [files],
      );
      return new Set(rows.map((r) => r.file));
    },
  };
}
export type RetentionRepository = ReturnType<typeof createRetentionRepository>;
