import type { AlertState } from '../domain/alert-state.js';
import type { Queryable } from './db.js';

/** The stored alert state of one check. */
export interface AlertStateRecord {
  state: AlertState;
  /** The latest non-reminder alert (reminders repeat its context); null before the first one. */
  lastAlertId: string | null;
}

/** A check whose alerting is not at rest (not PASSING), for rescheduling reminders on start. */
export interface OpenAlertState {
  accountId: string;
  checkId: string;
}

type StoredState = Omit<AlertState, 'failingSince' | 'lastAlertAt' | 'lastReminderAt'> & {
  failingSince: string | null;
  lastAlertAt: string | null;
  lastReminderAt: string | null;
};

const date = (v: string | null): Date | null => (v == null ? null : new Date(v));

function fromStored(s: StoredState): AlertState {
  return { ...s, failingSince: date(s.failingSince), lastAlertAt: date(s.lastAlertAt), lastReminderAt: date(s.lastReminderAt) };
}

/** Per-check alert state machines, scoped to one account in every statement but `listOpen`. */
export function createAlertStatesRepository(db: Queryable) {
  return {
    /** The check's state; `forUpdate` locks the row until the surrounding transaction ends. */
    async get(accountId: string, checkId: string, opts: { forUpdate?: boolean } = {}): Promise<AlertStateRecord | undefined> {
      const [row] = await db.query<{ state: StoredState; last_alert_id: string | null }>(
        `SELECT state, last_alert_id FROM check_alert_states WHERE account_id = $1 AND check_id = $2${opts.forUpdate ? ' FOR UPDATE' : ''}`,
        [accountId, checkId],
      );
      return row && { state: fromStored(row.state), lastAlertId: row.last_alert_id };
    },

    /** get() of several checks in one statement (no lock), by check id. */
    async getMany(keys: readonly { accountId: string; checkId: string }[]): Promise<Map<string, AlertStateRecord>> {
      if (keys.length === 0) return new Map();
      const rows = await db.query<{ check_id: string; state: StoredState; last_alert_id: string | null }>(
        `SELECT s.check_id, s.state, s.last_alert_id FROM check_alert_states s
         JOIN unnest($1::uuid[], $2::uuid[]) AS k(account_id, check_id) ON s.account_id = k.account_id AND s.check_id = k.check_id`,
        [keys.map((k) => k.accountId), keys.map((k) => k.checkId)],
      );
      return new Map(rows.map((row) => [row.check_id, { state: fromStored(row.state), lastAlertId: row.last_alert_id }]));
    },

    async save(accountId: string, checkId: string, record: AlertStateRecord, at: Date): Promise<void> {
      // JSON turns the Dates into ISO strings, which fromStored turns back.
      await db.query(
        `INSERT INTO check_alert_states (check_id, account_id, state, last_alert_id, updated_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (check_id) DO UPDATE SET state = EXCLUDED.state, last_alert_id = EXCLUDED.last_alert_id, updated_at = EXCLUDED.updated_at
         WHERE check_alert_states.account_id = EXCLUDED.account_id`,
        [checkId, accountId, JSON.stringify(record.state), record.lastAlertId, at],
      );
    },

    /** Every check of every account whose state is FAILING or DEGRADED: the process-wide reminder schedule. */
    async listOpen(): Promise<OpenAlertState[]> {
      const rows = await db.query<{ account_id: string; check_id: string }>(
        `SELECT account_id, check_id FROM check_alert_states WHERE (state->>'status') <> 'PASSING' ORDER BY check_id`,
      );
      return rows.map((r) => ({ accountId: r.account_id, checkId: r.check_id }));
    },
  };
}
export type AlertStatesRepository = ReturnType<typeof createAlertStatesRepository>;
