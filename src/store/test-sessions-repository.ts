import type { Queryable } from './db.js';

export interface TestSessionRow {
  id: string;
  account_id: string;
  name: string;
  status: string;
  run_location: string | null;
  environment: string | null;
  check_ids: string[];
  results: TestSessionCheckEntry[];
  error_group_ids: string[];
  created_at: Date;
  started_at: Date | null;
  stopped_at: Date | null;
  updated_at: Date | null;
}

/** One check of a test session and how its run went. */
export interface TestSessionCheckEntry {
  checkId: string;
  name: string;
  checkType: string;
  status: 'PENDING' | 'RUNNING' | 'PASSED' | 'FAILED' | 'CANCELLED';
  resultIds: string[];
  sequenceId: string | null;
}

export interface TestSessionErrorGroupRow {
  id: string;
  account_id: string;
  project_id: string | null;
  environments: string[] | null;
  error_hash: string;
  raw_error_message: string | null;
  cleaned_error_message: string;
  first_seen: Date;
  last_seen: Date;
  archived_until_next_event: boolean;
  archived_forever: boolean;
}

/** Test sessions and their error groups, scoped by account. */
/** The process running a session and how long its lease lasts unless renewed. */
export interface SessionLease {
  owner: string;
  ms: number;
}

export function createTestSessionsRepository(db: Queryable) {
  return {
    /** Stores a new session, leased to the process that runs it (`lease`), or unleased when none is given. */
    async insert(
      row: Pick<TestSessionRow, 'id' | 'name' | 'status' | 'run_location' | 'environment' | 'check_ids' | 'results'> & { account_id: string },
      lease?: SessionLease,
    ): Promise<void> {
      await db.query(
        `INSERT INTO test_sessions (id, account_id, name, status, run_location, environment, check_ids, results, started_at, runner_id, lease_until)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now(), $9, CASE WHEN $9::text IS NULL THEN NULL ELSE now() + $10 * interval '1 millisecond' END)`,
        [row.id, row.account_id, row.name, row.status, row.run_location, row.environment, row.check_ids, JSON.stringify(row.results), lease?.owner ?? null, lease?.ms ?? 0],
      );
    },

    /** Extends the leases of the sessions `owner` runs. */
    async renewLeases(owner: string, ids: string[], ms: number): Promise<void> {
      if (ids.length === 0) return;
      await db.query(
        `UPDATE test_sessions SET lease_until = now() + $3 * interval '1 millisecond' WHERE id = ANY($2::uuid[]) AND runner_id = $1 AND status = 'RUNNING'`,
        [owner, ids, ms],
      );
    },

    async save(id: string, patch: { status: string; results: TestSessionCheckEntry[]; errorGroupIds: string[]; stopped: boolean }): Promise<void> {
      await db.query(
        `UPDATE test_sessions SET status = $2, results = $3, error_group_ids = $4, updated_at = now(),
           stopped_at = CASE WHEN $5::boolean THEN coalesce(stopped_at, now()) ELSE stopped_at END WHERE id = $1`,
        [id, patch.status, JSON.stringify(patch.results), patch.errorGroupIds, patch.stopped],
      );
    },

    async get(accountId: string, id: string): Promise<TestSessionRow | undefined> {
      const [row] = await db.query<TestSessionRow>('SELECT * FROM test_sessions WHERE account_id = $1 AND id = $2', [accountId, id]);
      return row;
    },

    /** A page of sessions, newest first, after the cursor (created_at, id). */
    async list(accountId: string, limit: number, after?: { createdAt: Date; id: string }): Promise<TestSessionRow[]> {
      if (!after) {
        return db.query<TestSessionRow>('SELECT * FROM test_sessions WHERE account_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2', [accountId, limit]);
      }
      return db.query<TestSessionRow>(
        `SELECT * FROM test_sessions WHERE account_id = $1 AND (created_at, id) < ($3, $4::uuid)
         ORDER BY created_at DESC, id DESC LIMIT $2`,
        [accountId, limit, after.createdAt, after.id],
      );
    },

    /** Sessions left RUNNING by a process that stopped: they can never finish. */
    /**
     * Cancels the running sessions nobody runs any more: their process died (the lease ran out) or
     * they predate leases. Sessions a live process runs are left alone.
     */
    async cancelAbandoned(): Promise<number> {
      const rows = await db.query(
        `UPDATE test_sessions SET status = 'CANCELLED', stopped_at = now(), updated_at = now()
         WHERE status = 'RUNNING' AND (lease_until IS NULL OR lease_until < now()) RETURNING id`,
      );
      return rows.length;
    },

    /** Records one occurrence of an error in a session; returns the group id. */
    async recordError(accountId: string, group: { id: string; hash: string; raw: string; cleaned: string; environment: string | null; seenAt: Date }): Promise<string> {
      const [row] = await db.query<{ id: string }>(
        `INSERT INTO test_session_error_groups (id, account_id, environments, error_hash, raw_error_message, cleaned_error_message, first_seen, last_seen)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
         ON CONFLICT (account_id, error_hash) DO UPDATE SET last_seen = greatest(test_session_error_groups.last_seen, excluded.last_seen),
           raw_error_message = excluded.raw_error_message,
           environments = (SELECT array_agg(DISTINCT e) FROM unnest(coalesce(test_session_error_groups.environments, '{}') || coalesce(excluded.environments, '{}')) AS e),
           archived_until_next_event = CASE WHEN test_session_error_groups.archived_forever THEN test_session_error_groups.archived_until_next_event ELSE false END
         RETURNING id`,
        [group.id, accountId, group.environment ? [group.environment] : null, group.hash, group.raw, group.cleaned, group.seenAt],
      );
      return row!.id;
    },

    async getErrorGroup(accountId: string, id: string): Promise<TestSessionErrorGroupRow | undefined> {
      const [row] = await db.query<TestSessionErrorGroupRow>('SELECT * FROM test_session_error_groups WHERE account_id = $1 AND id = $2', [accountId, id]);
      return row;
    },

    async errorGroups(accountId: string, ids: string[]): Promise<TestSessionErrorGroupRow[]> {
      if (ids.length === 0) return [];
      return db.query<TestSessionErrorGroupRow>('SELECT * FROM test_session_error_groups WHERE account_id = $1 AND id = ANY($2::uuid[]) ORDER BY first_seen', [accountId, ids]);
    },

    async archiveErrorGroup(accountId: string, id: string, flags: { archiveForEver?: boolean; archivedUntilNextEvent?: boolean }): Promise<TestSessionErrorGroupRow | undefined> {
      const [row] = await db.query<TestSessionErrorGroupRow>(
        `UPDATE test_session_error_groups SET archived_forever = coalesce($3, archived_forever),
           archived_until_next_event = coalesce($4, archived_until_next_event)
         WHERE account_id = $1 AND id = $2 RETURNING *`,
        [accountId, id, flags.archiveForEver ?? null, flags.archivedUntilNextEvent ?? null],
      );
      return row;
    },

    /** Activated checks of an account matching ids or tags (all activated checks when neither is given). */
    async selectChecks(accountId: string, filter: { checkIds?: string[]; tags?: string[][] }): Promise<{ id: string; name: string; check_type: string; group_id: number | null }[]> {
      const rows = await db.query<{ id: string; name: string; check_type: string; group_id: number | null; tags: string[] }>(
        `SELECT id, name, check_type, group_id, tags FROM checks WHERE account_id = $1 AND activated
           AND ($2::uuid[] IS NULL OR id = ANY($2::uuid[])) ORDER BY created_at, id`,
        [accountId, filter.checkIds ?? null],
      );
      if (!filter.tags?.length) return rows;
      return rows.filter((r) => filter.tags!.some((all) => all.every((t) => r.tags.includes(t))));
    },

    async checksOwned(accountId: string, ids: string[]): Promise<Set<string>> {
      const rows = await db.query<{ id: string }>('SELECT id FROM checks WHERE account_id = $1 AND id = ANY($2::uuid[])', [accountId, ids]);
      return new Set(rows.map((r) => r.id));
    },
  };
}
export type TestSessionsRepository = ReturnType<typeof createTestSessionsRepository>;
