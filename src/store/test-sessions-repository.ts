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
  /** Why the session ended without running all its checks (nothing could resume it). */
  end_error: { code: string; message: string } | null;
}

/** Which service runs a session: `trigger` (deployed checks) or `run` (checks `checkly test` submitted). */
export type TestSessionKind = 'trigger' | 'run';

/** A running session this process just took over, with what resuming it needs. */
export interface ClaimedTestSession extends TestSessionRow {
  /** Null for sessions stored before sessions could be resumed. */
  kind: TestSessionKind | null;
  /** What was submitted (see migration 024); null when it was never stored. Holds secrets: never show it. */
  job: Record<string, any> | null;
}

/** A FINAL result recorded in a session for one of its checks. */
export interface SessionFinal {
  id: string;
  checkId: string;
  sequenceId: string;
  hasFailures: boolean;
  hasErrors: boolean;
  isDegraded: boolean;
}

/** One check of a test session and how its run went. */
export interface TestSessionCheckEntry {
  checkId: string;
  name: string;
  checkType: string;
  status: 'PENDING' | 'RUNNING' | 'PASSED' | 'FAILED' | 'CANCELLED';
  resultIds: string[];
  sequenceId: string | null;
  /** Of a PASSED or FAILED entry: whether its FINAL results had errors (absent in sessions stored before these were kept). */
  hasErrors?: boolean;
  /** Of a PASSED or FAILED entry: whether its FINAL results were degraded (absent likewise). */
  isDegraded?: boolean;
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

/** The process running a session and how long its lease lasts unless renewed. */
export interface SessionLease {
  owner: string;
  ms: number;
}

// Never `job`: it holds what was submitted, secrets included, and only resuming reads it.
const COLUMNS = `id, account_id, name, status, run_location, environment, check_ids, results, error_group_ids,
  created_at, started_at, stopped_at, updated_at, end_error`;

/**
 * Test sessions and their error groups, scoped by account.
 * Long by design: a repository: an object of one-statement methods over one table, sharing its SELECT lists.
 */
export function createTestSessionsRepository(db: Queryable) {
  return {
    /**
     * Stores a new session, leased to the process that runs it (`lease`), or unleased when none is
     * given; `kind` and `job` are what another process needs to resume it.
     */
    async insert(
      row: Pick<TestSessionRow, 'id' | 'name' | 'status' | 'run_location' | 'environment' | 'check_ids' | 'results'>
        & { account_id: string; kind?: TestSessionKind; job?: Record<string, unknown> },
      lease?: SessionLease,
    ): Promise<void> {
      await db.query(
        `INSERT INTO test_sessions (id, account_id, name, status, run_location, environment, check_ids, results, started_at, runner_id, lease_until, kind, job)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now(), $9, CASE WHEN $9::text IS NULL THEN NULL ELSE now() + $10 * interval '1 millisecond' END, $11, $12)`,
        [
          row.id, row.account_id, row.name, row.status, row.run_location, row.environment, row.check_ids, JSON.stringify(row.results),
          lease?.owner ?? null, lease?.ms ?? 0, row.kind ?? null, row.job ? JSON.stringify(row.job) : null,
        ],
      );
    },

    /** Extends the leases of the sessions `owner` runs; resolves to those it still holds. */
    async renewLeases(owner: string, ids: string[], ms: number): Promise<string[]> {
      if (ids.length === 0) return [];
      const rows = await db.query<{ id: string }>(
        `UPDATE test_sessions SET lease_until = now() + $3 * interval '1 millisecond'
         WHERE id = ANY($2::uuid[]) AND runner_id = $1 AND status = 'RUNNING' RETURNING id`,
        [owner, ids, ms],
      );
      return rows.map((r) => r.id);
    },

    /** Ends `owner`'s lease now, so that a live process resumes the session at its next sweep. */
    async expireLease(owner: string, id: string): Promise<void> {
      await db.query(
        `UPDATE test_sessions SET lease_until = now() - interval '1 millisecond' WHERE id = $1 AND runner_id = $2 AND status = 'RUNNING'`,
        [id, owner],
      );
    },

    /**
     * Takes over at most `limit` running sessions whose lease ran out (or that never had one):
     * leased to `owner` from now on. SKIP LOCKED and the lease check make each claim exclusive:
     * of processes sweeping at once, exactly one gets a given session.
     */
    async claimAbandoned(owner: string, ms: number, limit: number): Promise<ClaimedTestSession[]> {
      return db.query<ClaimedTestSession>(
        `UPDATE test_sessions SET runner_id = $1, lease_until = now() + $2 * interval '1 millisecond', updated_at = now()
         WHERE id IN (
           SELECT id FROM test_sessions WHERE status = 'RUNNING' AND (lease_until IS NULL OR lease_until < now())
           ORDER BY created_at LIMIT $3 FOR UPDATE SKIP LOCKED)
         AND status = 'RUNNING' AND (lease_until IS NULL OR lease_until < now())
         RETURNING ${COLUMNS}, kind, job`,
        [owner, ms, limit],
      );
    },

    /**
     * Saves a session's progress. With `owner` (a string, or null for unleased sessions) only while
     * that process holds the session, so a process that lost it (its lease ran out and another took
     * over, or it was cancelled elsewhere) cannot overwrite it; a final session keeps its status.
     * Resolves to whether it was saved. Ending a session drops its job (and the secrets in it).
     */
    async save(
      id: string,
      patch: { status: string; results: TestSessionCheckEntry[]; errorGroupIds: string[]; stopped: boolean; endError?: { code: string; message: string } },
      owner?: string | null,
    ): Promise<boolean> {
      const rows = await db.query(
        `UPDATE test_sessions SET status = $2, results = $3, error_group_ids = $4, updated_at = now(),
           stopped_at = CASE WHEN $5::boolean THEN coalesce(stopped_at, now()) ELSE stopped_at END,
           job = CASE WHEN $5::boolean THEN NULL ELSE job END,
           end_error = coalesce($8::jsonb, end_error)
         WHERE id = $1 AND ($6::boolean OR runner_id IS NOT DISTINCT FROM $7::text) AND (status = 'RUNNING' OR status = $2)
         RETURNING id`,
        [id, patch.status, JSON.stringify(patch.results), patch.errorGroupIds, patch.stopped, owner === undefined, owner ?? null, patch.endError ? JSON.stringify(patch.endError) : null],
      );
      return rows.length > 0;
    },

    /** The FINAL results of deployed checks recorded in a session (not those a shutdown cancelled). */
    async finals(id: string): Promise<SessionFinal[]> {
      return db.query<SessionFinal>(
        `SELECT id::text AS "id", check_id::text AS "checkId", sequence_id::text AS "sequenceId", has_failures AS "hasFailures",
                has_errors AS "hasErrors", is_degraded AS "isDegraded"
         FROM check_results WHERE test_session_id = $1 AND result_type = 'FINAL' AND NOT is_cancelled ORDER BY created_at, id`,
        [id],
      );
    },

    async get(accountId: string, id: string): Promise<TestSessionRow | undefined> {
      const [row] = await db.query<TestSessionRow>(`SELECT ${COLUMNS} FROM test_sessions WHERE account_id = $1 AND id = $2`, [accountId, id]);
      return row;
    },

    /** A page of sessions, newest first, after the cursor (created_at, id); only those that ran `checkId` when given. */
    async list(accountId: string, limit: number, after?: { createdAt: Date; id: string }, checkId?: string): Promise<TestSessionRow[]> {
      const params: unknown[] = [accountId, limit];
      const where = ['account_id = $1'];
      if (after) {
        params.push(after.createdAt, after.id);
        where.push(`(created_at, id) < ($${params.length - 1}, $${params.length}::uuid)`);
      }
      if (checkId) {
        params.push(checkId);
        where.push(`$${params.length}::uuid = ANY(check_ids)`);
      }
      return db.query<TestSessionRow>(
        `SELECT ${COLUMNS} FROM test_sessions WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT $2`,
        params,
      );
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
