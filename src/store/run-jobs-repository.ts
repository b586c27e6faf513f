import type { Queryable } from './db.js';

/** A scheduled run as a durable job: one check, one slot, the locations it runs in. */
export interface RunJobRow {
  id: string;
  check_id: string;
  slot_at: Date;
  locations: string[];
  /** Who may claim it: '' the runner processes, 'pl:<account>:<slug>' or 'dc:<slug>' the agents of that location. */
  lane: string;
  /** Set for on-demand runs: what the run needs beyond its check. */
  run: OnDemandRun | null;
  state: 'queued' | 'leased' | 'done' | 'skipped';
  lease_owner: string | null;
  lease_until: Date | null;
  claims: number;
}

/** An on-demand run queued for an agent: the caller waits for the FINAL result of `sequenceId`. */
export interface OnDemandRun {
  sequenceId: string;
  testSessionId: string | null;
  overrides: Record<string, unknown> | null;
}

/** A job to queue: one check's slot, in a lane (see RunJobRow.lane; default the runners'). */
export interface NewRunJob {
  checkId: string;
  slotAt: Date;
  locations: string[];
  lane?: string;
}

/**
 * Which jobs a claim may take: an agent's own lane, or the runner processes' — their lane, the
 * data-center lanes no live agent serves, and private-location runs no live agent took within
 * `privateGraceMs` (the runner ends those with a NO_AGENT result).
 */
export type ClaimScope = { lane: string } | { runner: { agentLiveMs: number; privateGraceMs: number } };

/** Which process holds a job, as the recorder checks it. */
export interface RunJobLease {
  id: string;
  owner: string;
}

/** What a job's lease allows a result to store (see `lockForResults`). */
export interface RunJobLeaseState {
  id: string;
  lease_owner: string | null;
  state: RunJobRow['state'];
  finals_stored: number;
  /** How many locations the job runs in: one FINAL result each. */
  locations: number;
}

/** The runner processes' claim with the default agent liveness and private-location grace. */
const RUNNERS: ClaimScope = { runner: { agentLiveMs: 15_000, privateGraceMs: 15_000 } };

/**
 * Queries of the run job queue (all accounts). Times come from the database clock, so processes
 * whose clocks disagree still agree on which lease has expired.
 * Long by design: a repository: an object of one-statement methods over one table, sharing its SELECT lists.
 */
export function createRunJobsRepository(db: Queryable) {
  return {
    /**
     * Queues runs that are due now (the scheduler enqueues a slot when it starts, so no clock
     * comparison is needed to claim it); a (check, slot, location) already queued or run is left as
     * it is. Returns how many were new.
     */
    async enqueue(jobs: NewRunJob[]): Promise<number> {
      if (jobs.length === 0) return 0;
      const rows = await db.query<{ id: string }>(
        `INSERT INTO run_jobs (check_id, slot_at, locations, lane)
         SELECT j.check_id, j.slot_at, string_to_array(j.locations, E'\\x1f'), j.lane
         FROM unnest($1::uuid[], $2::timestamptz[], $3::text[], $4::text[]) AS j(check_id, slot_at, locations, lane)
         WHERE EXISTS (SELECT 1 FROM checks c WHERE c.id = j.check_id)
         ON CONFLICT (check_id, slot_at, lane) DO NOTHING
         RETURNING id`,
        [jobs.map((j) => j.checkId), jobs.map((j) => j.slotAt), jobs.map((j) => j.locations.join('\x1f')), jobs.map((j) => j.lane ?? '')],
      );
      return rows.length;
    },

    /**
     * Leases up to `limit` due jobs of `scope` to `owner`: queued ones and those whose lease
     * expired (their holder died or stalled), oldest slot first, never a check that has a run of
     * the same lane leased now.
     */
    async claim(owner: string, limit: number, leaseMs: number, scope: ClaimScope = RUNNERS): Promise<RunJobRow[]> {
      if (limit <= 0) return [];
      const params: unknown[] = [owner, limit, leaseMs];
      let laneFilter: string;
      if ('lane' in scope) {
        params.push(scope.lane);
        // Agents run what they claim at once: a slot queued ahead of time (the scheduler's lead) waits for its time.
        laneFilter = 'j.lane = $4 AND j.slot_at <= now()';
      } else {
        params.push(scope.runner.agentLiveMs, scope.runner.privateGraceMs);
        laneFilter = `(j.lane = ''
          OR (NOT EXISTS (SELECT 1 FROM agents a WHERE a.lane = j.lane AND a.left_at IS NULL AND a.last_seen > now() - $4 * interval '1 millisecond')
              AND (j.lane LIKE 'dc:%' OR j.slot_at < now() - $5 * interval '1 millisecond')))`;
      }
      return db.query<RunJobRow>(
        `WITH locked AS (
           SELECT j.id, j.check_id, j.slot_at FROM run_jobs j
           WHERE (j.state = 'queued' OR (j.state = 'leased' AND j.lease_until < now()))
             AND ${laneFilter}
             AND NOT EXISTS (
               SELECT 1 FROM run_jobs o WHERE o.check_id = j.check_id AND o.lane = j.lane AND o.id <> j.id AND o.state = 'leased' AND o.lease_until >= now())
           ORDER BY j.slot_at
           LIMIT $2
           FOR UPDATE SKIP LOCKED),
         -- One slot per check and lane at a time: its later slots wait (and are skipped as overlaps).
         picked AS (SELECT DISTINCT ON (check_id) id FROM locked ORDER BY check_id, slot_at)
         UPDATE run_jobs SET state = 'leased', lease_owner = $1, lease_until = now() + $3 * interval '1 millisecond', claims = claims + 1
         WHERE id IN (SELECT id FROM picked)
         RETURNING id::text, check_id, slot_at, locations, lane, run, state, lease_owner, lease_until, claims`,
        params,
      );
    },

    /**
     * Marks queued jobs skipped whose check still runs an earlier slot (a check never overlaps
     * itself, as scheduling promises); answers them so they can be logged.
     */
    async skipOverlapping(): Promise<{ check_id: string; slot_at: Date }[]> {
      return db.query(
        `UPDATE run_jobs j SET state = 'skipped', finished_at = now()
         WHERE j.state = 'queued' AND j.run IS NULL AND j.slot_at <= now()
           AND EXISTS (SELECT 1 FROM run_jobs o WHERE o.check_id = j.check_id AND o.lane = j.lane AND o.id <> j.id AND o.state = 'leased'
             AND o.lease_until >= now() AND o.slot_at < j.slot_at)
         RETURNING j.check_id, j.slot_at`,
      );
    },

    /**
     * Extends the leases `owner` still holds; answers the ids it holds no longer (another process
     * claimed them). A job `owner` already finished counts as held: its run is just ending.
     */
    async renew(owner: string, ids: string[], leaseMs: number): Promise<string[]> {
      if (ids.length === 0) return [];
      const held = await db.query<{ id: string }>(
        `UPDATE run_jobs SET lease_until = CASE WHEN state = 'leased' THEN now() + $3 * interval '1 millisecond' ELSE lease_until END
         WHERE id = ANY($2::bigint[]) AND lease_owner = $1 AND state IN ('leased', 'done')
         RETURNING id::text`,
        [owner, ids, leaseMs],
      );
      const kept = new Set(held.map((r) => r.id));
      return ids.filter((id) => !kept.has(id));
    },

    /** Whether `lease` is still held (an attempt may be stored). */
    async holds(lease: RunJobLease): Promise<boolean> {
      const rows = await db.query('SELECT 1 FROM run_jobs WHERE id = $1 AND lease_owner = $2 AND state = \'leased\'', [lease.id, lease.owner]);
      return rows.length > 0;
    },

    /**
     * Counts one FINAL result of the job if `lease` still holds it (call in the transaction storing
     * that result); the job is done with one FINAL per location. False when the lease was lost or
     * the job already has all its FINAL results (a re-run after a crash): the result must not be stored.
     */
    async countFinal(lease: RunJobLease): Promise<boolean> {
      const rows = await db.query(
        `UPDATE run_jobs SET finals_stored = finals_stored + 1,
           state = CASE WHEN finals_stored + 1 >= cardinality(locations) THEN 'done' ELSE state END,
           finished_at = CASE WHEN finals_stored + 1 >= cardinality(locations) THEN now() ELSE finished_at END
         WHERE id = $1 AND lease_owner = $2 AND state = 'leased' AND finals_stored < cardinality(locations) RETURNING id`,
        [lease.id, lease.owner],
      );
      return rows.length > 0;
    },

    /**
     * Locks jobs (in id order, so concurrent batches cannot deadlock) and reads what `holds` and
     * `countFinal` decide on: the recorder's group commit settles a batch's leases from this.
     */
    async lockForResults(ids: readonly string[]): Promise<RunJobLeaseState[]> {
      if (ids.length === 0) return [];
      return db.query<RunJobLeaseState>(
        `SELECT id::text, lease_owner, state, finals_stored, cardinality(locations) AS locations
         FROM run_jobs WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE`,
        [ids],
      );
    },

    /** Stores the FINAL counts a batch settled on jobs locked by `lockForResults`; a job that has them all is done. */
    async storeFinalCounts(jobs: readonly { id: string; finalsStored: number }[]): Promise<void> {
      if (jobs.length === 0) return;
      await db.query(
        `UPDATE run_jobs j SET finals_stored = v.finals,
           state = CASE WHEN v.finals >= cardinality(j.locations) THEN 'done' ELSE j.state END,
           finished_at = CASE WHEN v.finals >= cardinality(j.locations) THEN now() ELSE j.finished_at END
         FROM unnest($1::bigint[], $2::int[]) AS v(id, finals)
         WHERE j.id = v.id`,
        [jobs.map((j) => j.id), jobs.map((j) => j.finalsStored)],
      );
    },

    /** Closes the job if `lease` still holds it, whatever it stored (its run ended without all its results). */
    async close(lease: RunJobLease): Promise<boolean> {
      const rows = await db.query(
        `UPDATE run_jobs SET state = 'done', finished_at = now() WHERE id = $1 AND lease_owner = $2 AND state = 'leased' RETURNING id`,
        [lease.id, lease.owner],
      );
      return rows.length > 0;
    },

    /** Gives leases back to the queue (a process shutting down before it started them). */
    async release(owner: string, ids: string[]): Promise<void> {
      if (ids.length === 0) return;
      await db.query(
        `UPDATE run_jobs SET state = 'queued', lease_owner = NULL, lease_until = NULL WHERE id = ANY($2::bigint[]) AND lease_owner = $1 AND state = 'leased'`,
        [owner, ids],
      );
    },

    /** Forgets finished jobs older than `before` (their slots can no longer be re-planned). */
    async pruneFinished(before: Date, limit = 5_000): Promise<number> {
      const rows = await db.query(
        `DELETE FROM run_jobs WHERE id IN (SELECT id FROM run_jobs WHERE state IN ('done', 'skipped') AND finished_at < $1 LIMIT $2) RETURNING id`,
        [before, limit],
      );
      return rows.length;
    },

    /** Queue size and the oldest due slot waiting (metrics, health), of one lane when given. */
    async depth(lane?: string): Promise<{ queued: number; leased: number; oldestQueuedAt: Date | null }> {
      const [row] = await db.query<{ queued: number; leased: number; oldest: Date | null }>(
        `SELECT count(*) FILTER (WHERE state = 'queued') AS queued,
                count(*) FILTER (WHERE state = 'leased') AS leased,
                min(slot_at) FILTER (WHERE state = 'queued') AS oldest
         FROM run_jobs WHERE state IN ('queued', 'leased')${lane === undefined ? '' : ' AND lane = $1'}`,
        lane === undefined ? [] : [lane],
      );
      return { queued: Number(row?.queued ?? 0), leased: Number(row?.leased ?? 0), oldestQueuedAt: row?.oldest ?? null };
    },

    /**
     * Queues an on-demand run of one location in `lane`, due now; resolves to its id (null when
     * the check is gone). Its slot is the database's now, made unique per check and lane.
     */
    async enqueueOnDemand(checkId: string, location: string, lane: string, run: OnDemandRun): Promise<string | null> {
      for (let i = 0; i < 5; i++) {
        const [row] = await db.query<{ id: string }>(
          `INSERT INTO run_jobs (check_id, slot_at, locations, lane, run)
           SELECT $1, clock_timestamp() + $5 * interval '1 microsecond', ARRAY[$2::text], $3, $4::jsonb WHERE EXISTS (SELECT 1 FROM checks WHERE id = $1)
           ON CONFLICT (check_id, slot_at, lane) DO NOTHING RETURNING id::text`,
          [checkId, location, lane, JSON.stringify(run), i],
        );
        if (row) return row.id;
        if ((await db.query('SELECT 1 FROM checks WHERE id = $1', [checkId])).length === 0) return null;
      }
      return null;
    },

    /** Where a job is: its state (undefined once pruned or never queued). */
    async stateOf(id: string): Promise<RunJobRow['state'] | undefined> {
      const [row] = await db.query<{ state: RunJobRow['state'] }>('SELECT state FROM run_jobs WHERE id = $1', [id]);
      return row?.state;
    },

    /** One job as its lease holder sees it: undefined unless `owner` holds it now (or just finished it). */
    async held(id: string, owner: string): Promise<RunJobRow | undefined> {
      if (!/^[0-9]{1,18}$/.test(id)) return undefined;
      const [row] = await db.query<RunJobRow>(
        `SELECT id::text, check_id, slot_at, locations, lane, run, state, lease_owner, lease_until, claims FROM run_jobs
         WHERE id = $1 AND lease_owner = $2 AND state IN ('leased', 'done')`,
        [id, owner],
      );
      return row;
    },
  };
}
export type RunJobsRepository = ReturnType<typeof createRunJobsRepository>;
