import type { Queryable } from './db.js';
import type { SubscriptionInput } from './subscriptions-repository.js';

/** A check as the scheduler loads it: its document plus its group's, when it has one. */
export interface ScheduledCheckRow {
  id: string;
  account_id: string;
  check_type: string;
  name: string;
  group_id: number | null;
  data: Record<string, any>;
  updated_at: Date | null;
  created_at: Date;
  group_name: string | null;
  group_data: Record<string, any> | null;
  group_subs: SubscriptionInput[] | null;
  next_run_at: Date | null;
}

/** Queries of the scheduler and the run orchestration (all accounts: the runner serves them all). */
export function createRunnerRepository(db: Queryable) {
  const SELECT = `SELECT c.id, c.account_id, c.check_type, c.name, c.group_id, c.data, c.updated_at, c.created_at,
      g.name AS group_name, g.data AS group_data,
      CASE WHEN g.id IS NULL THEN NULL ELSE coalesce((
        SELECT json_agg(json_build_object('alertChannelId', s.alert_channel_id, 'activated', s.activated))
        FROM alert_channel_subscriptions s WHERE s.group_id = g.id), '[]'::json) END AS group_subs,
      sch.next_run_at
    FROM checks c
    LEFT JOIN check_groups g ON g.id = c.group_id
    LEFT JOIN check_schedule sch ON sch.check_id = c.id`;
  return {
    /**
     * Every check, or those whose check or group was written by a transaction at or after `sinceXid`
     * (a `changeHorizon()` taken before the previous read): committed late or not, none is missed.
     */
    async checks(sinceXid?: string): Promise<ScheduledCheckRow[]> {
      if (!sinceXid) return db.query<ScheduledCheckRow>(SELECT);
      return db.query<ScheduledCheckRow>(`${SELECT} WHERE c.change_xid >= $1::xid8 OR g.change_xid >= $1::xid8`, [sinceXid]);
    },

    /** The oldest transaction still running (or the next one): every write not yet visible will carry an id at or above it. */
    async changeHorizon(): Promise<string> {
      const [row] = await db.query<{ xmin: string }>('SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin');
      return row!.xmin;
    },

    async check(id: string): Promise<ScheduledCheckRow | undefined> {
      const [row] = await db.query<ScheduledCheckRow>(`${SELECT} WHERE c.id = $1`, [id]);
      return row;
    },

    /** The heartbeat check a ping token belongs to. */
    /** The checks of `ids` that exist (one statement for a batch of claimed runs). */
    async checksById(ids: readonly string[]): Promise<ScheduledCheckRow[]> {
      if (ids.length === 0) return [];
      return db.query<ScheduledCheckRow>(`${SELECT} WHERE c.id = ANY($1::uuid[])`, [ids]);
    },

    async checkByPingToken(token: string): Promise<ScheduledCheckRow | undefined> {
      const [row] = await db.query<ScheduledCheckRow>(`${SELECT} WHERE c.check_type = 'HEARTBEAT' AND c.data->'heartbeat'->>'pingToken' = $1`, [token]);
      return row;
    },

    /** Ids of every check (to notice deletions). */
    async checkIds(): Promise<string[]> {
      return (await db.query<{ id: string }>('SELECT id FROM checks')).map((r) => r.id);
    },

    /** Account-level variables, values included: only the runner reads them this way. */
    async accountVariables(accountId: string): Promise<{ key: string; value: string; secret: boolean }[]> {
      return db.query('SELECT key, value, secret FROM environment_variables WHERE account_id = $1 ORDER BY key', [accountId]);
    },

    /** The variables of each account of `accountIds`, by key (one statement for a batch of runs). */
    async accountVariablesOf(accountIds: readonly string[]): Promise<Map<string, { key: string; value: string; secret: boolean }[]>> {
      const byAccount = new Map(accountIds.map((id) => [id, [] as { key: string; value: string; secret: boolean }[]]));
      if (accountIds.length === 0) return byAccount;
      const rows = await db.query<{ account_id: string; key: string; value: string; secret: boolean }>(
        'SELECT account_id, key, value, secret FROM environment_variables WHERE account_id = ANY($1::uuid[]) ORDER BY key',
        [accountIds],
      );
      for (const { account_id, ...variable } of rows) byAccount.get(account_id)?.push(variable);
      return byAccount;
    },

    async snippetScripts(accountId: string, ids: number[]): Promise<Map<number, string>> {
      if (ids.length === 0) return new Map();
      const rows = await db.query<{ id: number; script: string }>('SELECT id, script FROM snippets WHERE account_id = $1 AND id = ANY($2::int[])', [accountId, ids]);
      return new Map(rows.map((r) => [r.id, r.script]));
    },

    /** Persists the next planned slot of each check (one statement for a batch). */
    async saveNextRuns(entries: { checkId: string; nextRunAt: Date; startedAt?: Date | null }[]): Promise<void> {
      if (entries.length === 0) return;
      await db.query(
        `INSERT INTO check_schedule (check_id, next_run_at, last_started_at, updated_at)
         SELECT e.check_id, e.next_run_at, e.started_at, now()
         FROM unnest($1::uuid[], $2::timestamptz[], $3::timestamptz[]) AS e(check_id, next_run_at, started_at)
         WHERE EXISTS (SELECT 1 FROM checks WHERE id = e.check_id)
         ON CONFLICT (check_id) DO UPDATE SET next_run_at = excluded.next_run_at,
           last_started_at = coalesce(excluded.last_started_at, check_schedule.last_started_at), updated_at = now()`,
        [entries.map((e) => e.checkId), entries.map((e) => e.nextRunAt), entries.map((e) => e.startedAt ?? null)],
      );
    },

    /** The latest ping of a heartbeat check. */
    async lastPing(checkId: string): Promise<{ kind: string; received_at: Date } | undefined> {
      const [row] = await db.query<{ kind: string; received_at: Date }>(
        `SELECT kind, received_at FROM heartbeat_pings WHERE check_id = $1 AND kind <> 'start' ORDER BY received_at DESC LIMIT 1`,
        [checkId],
      );
      return row;
    },
  };
}
export type RunnerRepository = ReturnType<typeof createRunnerRepository>;
