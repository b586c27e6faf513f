import { checkHealth, nextCheckStatus, type CheckHealth, type CheckStatusState, type FinalRun } from '../domain/next-check-status.js';
import { LeaseLostError } from '../domain/lease-lost-error.js';
import { toCheckStatusView } from '../contract/check-status-view.js';
import { statusStateOf, type CheckStatusRow } from '../store/check-statuses-repository.js';
import type { Db } from '../store/db.js';
import type { ErrorOccurrence } from '../store/error-groups-repository.js';
import { repositories, type Repositories } from '../store/repositories.js';
import type { NewResult, ResultRow } from '../store/results-repository.js';
import type { RecordRunInput } from './record-run-input.js';

/** A run ready to be written: its input and what the recorder derived from it. */
export interface PreparedRun {
  input: RecordRunInput;
  /** The result row to insert; its error group ids are filled in when written. */
  result: Omit<NewResult, 'errorGroupIds'>;
  /** Its errors, as occurrences of error groups (none for test-session runs). */
  occurrences: ErrorOccurrence[];
  /** A FINAL result outside test sessions: it moves the check's status and is queued for alerting. */
  monitored: boolean;
  sslDaysRemaining: number | null;
}

/** A check moving between PASSING, DEGRADED and FAILING, with its status (API view) right after. */
export interface StatusChange {
  previous: CheckHealth | null;
  current: CheckHealth;
  status: Record<string, any>;
}

/** What became of one run of a batch: stored (with the status change it made), or the error that dropped it. */
export type RunOutcome = { row: ResultRow; change: StatusChange | null } | { error: unknown };

/** Raised inside the batch path when the batch must be written run by run instead. */
class WriteSeparately extends Error {}

/**
 * Writes the runs of one batch and answers each run's outcome, in order; rejects when the batch
 * could not be committed (no run of it is stored). The common case is one transaction of a fixed
 * number of multi-row statements whatever the batch size. When one of them fails (a run's check
 * was deleted, another process created a status first) that transaction is rolled back and the
 * runs are written again in one transaction, each in a savepoint of its own, so that only the
 * failing run is lost, with the error it would have had alone. A lost lease drops its run either
 * way. A lone run is written alone: what it throws is its rejection.
 */
export async function writeRunBatch(db: Db, runs: readonly PreparedRun[]): Promise<RunOutcome[]> {
  if (runs.length === 1) return db.transaction(async (tx) => [await writeOne(repositories(tx), runs[0]!)]);
  let failedWithin: unknown = undefined;
  try {
    return await db.transaction(async (tx) => {
      try {
        return await writeTogether(repositories(tx), runs);
      } catch (err) {
        failedWithin = err;
        throw err;
      }
    });
  } catch (err) {
    // A failed commit is the batch's answer; only a failed statement is worth writing run by run.
    if (err !== failedWithin) throw err;
  }
  return db.transaction(async (tx) => {
    const repos = repositories(tx);
    const outcomes: RunOutcome[] = [];
    for (const run of runs) {
      await tx.query('SAVEPOINT run_write');
      try {
        outcomes.push(await writeOne(repos, run));
        await tx.query('RELEASE SAVEPOINT run_write');
      } catch (error) {
        await tx.query('ROLLBACK TO SAVEPOINT run_write');
        await tx.query('RELEASE SAVEPOINT run_write');
        outcomes.push({ error });
      }
    }
    return outcomes;
  });
}

const locationsOf = (input: RecordRunInput) => [...(input.check.data.locations ?? []), ...(input.check.data.privateLocations ?? [])];

function finalRunOf(row: ResultRow, sslDaysRemaining: number | null): FinalRun {
  return {
    hasFailures: row.has_failures, hasErrors: row.has_errors, isDegraded: row.is_degraded, responseTime: row.response_time,
    location: row.run_location, checkRunId: row.check_run_id, startedAt: row.started_at, sslDaysRemaining,
  };
}

function distinct(ids: readonly string[]): string[] {
  return [...new Set(ids)];
}

/** The batch path: each step one statement for all runs, locking in the order leases, error groups, statuses. */
async function writeTogether(repos: Repositories, runs: readonly PreparedRun[]): Promise<RunOutcome[]> {
  const dropped = new Map<number, RunOutcome>();

  // Leases are settled in memory, run after run, exactly as holds/countFinal would in turn.
  const leaseIds = distinct(runs.flatMap((r) => (r.input.lease ? [r.input.lease.id] : [])));
  if (leaseIds.length > 0) {
    const jobs = new Map((await repos.runJobs.lockForResults(leaseIds)).map((j) => [j.id, { ...j }]));
    const counted = new Set<string>();
    runs.forEach((run, i) => {
      const lease = run.input.lease;
      if (!lease) return;
      const job = jobs.get(lease.id);
      let held = job !== undefined && job.lease_owner === lease.owner && job.state === 'leased';
      if (held && run.input.resultType === 'FINAL') {
        if (job!.finals_stored < job!.locations) {
          job!.finals_stored += 1;
          if (job!.finals_stored >= job!.locations) job!.state = 'done';
          counted.add(job!.id);
        } else held = false;
      }
      if (!held) dropped.set(i, { error: new LeaseLostError(lease.id) });
    });
    await repos.runJobs.storeFinalCounts([...counted].map((id) => ({ id, finalsStored: jobs.get(id)!.finals_stored })));
  }
  const kept = runs.flatMap((run, i) => (dropped.has(i) ? [] : [{ run, i }]));

  const groupIds = await repos.errorGroups.recordOccurrences(
    kept.flatMap(({ run }) => run.occurrences.map((o) => ({ ...o, accountId: run.input.check.accountId, checkId: run.input.check.id }))),
  );
  let next = 0;
  const rows = await repos.results.insertMany(kept.map(({ run }) => {
    const ids = groupIds.slice(next, next + run.occurrences.length);
    next += run.occurrences.length;
    return { ...run.result, accountId: run.input.check.accountId, errorGroupIds: distinct(ids) };
  }));

  // Statuses move in memory run after run (nextCheckStatus is pure), then each check is written once.
  const monitored = kept.flatMap(({ run }, k) => (run.monitored ? [{ run, row: rows[k]!, k }] : []));
  const stored = new Map((await repos.checkStatuses.getManyForUpdate(distinct(monitored.map(({ run }) => run.input.check.id)).sort()))
    .map((row) => [row.check_id, row]));
  const statuses = new Map<string, { accountId: string; checkId: string; name: string; state: CheckStatusState | null; exists: boolean }>();
  const changes = new Map<number, { previous: CheckHealth | null; current: CheckHealth; state: CheckStatusState }>();
  for (const { run, row, k } of monitored) {
    const { check } = run.input;
    let status = statuses.get(check.id);
    if (!status) {
      const found = stored.get(check.id);
      if (found && found.account_id !== check.accountId) throw new WriteSeparately('a status of another account');
      status = { accountId: check.accountId, checkId: check.id, name: check.name, state: found ? statusStateOf(found) : null, exists: !!found };
      statuses.set(check.id, status);
    }
    const previous = status.state;
    const state = nextCheckStatus(previous, finalRunOf(row, run.sslDaysRemaining), locationsOf(run.input));
    status.state = state;
    status.name = check.name;
    const before = previous ? checkHealth(previous) : null;
    const after = checkHealth(state);
    if (before !== after) changes.set(k, { previous: before, current: after, state });
  }
  const raced = await repos.checkStatuses.writeMany([...statuses.values()].map((s) => ({ ...s, state: s.state! })));
  if (raced.length > 0) throw new WriteSeparately('another process created a status first');
  // Alerting reads the outbox, not the bus: committed with the result, the run cannot be lost to it.
  await repos.alertOutbox.addMany(monitored.map(({ run, row }) => ({
    accountId: run.input.check.accountId, checkId: run.input.check.id, resultId: row.id, sequenceId: run.input.sequenceId,
  })));

  // The status a change shows is the one right after its run: the stored row with that run's state.
  const changed = new Map((await repos.checkStatuses.getMany(distinct([...changes.keys()].map((k) => kept[k]!.run.input.check.id))))
    .map((row) => [row.check_id, row]));
  const outcomes: RunOutcome[] = [];
  let k = 0;
  for (let i = 0; i < runs.length; i++) {
    const drop = dropped.get(i);
    if (drop) {
      outcomes.push(drop);
      continue;
    }
    const change = changes.get(k);
    const status = change && changed.get(kept[k]!.run.input.check.id);
    outcomes.push({
      row: rows[k]!,
      change: change ? { previous: change.previous, current: change.current, status: toCheckStatusView(withState(status!, change.state)) } : null,
    });
    k++;
  }
  return outcomes;
}

/** A status row showing `s` instead of its stored state. */
function withState(row: CheckStatusRow, s: CheckStatusState): CheckStatusRow {
  return {
    ...row, has_failures: s.hasFailures, has_errors: s.hasErrors, is_degraded: s.isDegraded, longest_run: s.longestRun,
    shortest_run: s.shortestRun, last_run_location: s.lastRunLocation, last_check_run_id: s.lastCheckRunId,
    ssl_days_remaining: s.sslDaysRemaining, location_run_times: s.locationRunTimes, last_result_at: s.lastResultAt,
  };
}

/** The run-by-run path: the statements the recorder made before group commit, for one run. */
async function writeOne(repos: Repositories, run: PreparedRun): Promise<RunOutcome> {
  const { input } = run;
  const { check } = input;
  if (input.lease) {
    const held = input.resultType === 'FINAL' ? await repos.runJobs.countFinal(input.lease) : await repos.runJobs.holds(input.lease);
    if (!held) throw new LeaseLostError(input.lease.id);
  }
  const ids: string[] = [];
  for (const o of run.occurrences) {
    const id = await repos.errorGroups.recordOccurrence(check.accountId, check.id, o);
    if (!ids.includes(id)) ids.push(id);
  }
  const row = await repos.results.insert(check.accountId, { ...run.result, errorGroupIds: ids });
  const change = run.monitored ? await updateStatus(repos, run, row) : null;
  if (run.monitored) await repos.alertOutbox.add({ accountId: check.accountId, checkId: check.id, resultId: row.id, sequenceId: input.sequenceId });
  return { row, change };
}

async function updateStatus(repos: Repositories, run: PreparedRun, row: ResultRow): Promise<StatusChange | null> {
  const { check } = run.input;
  // Two first results of a check can race to create its status: the loser locks the winner's row.
  for (let tries = 0; tries < 2; tries++) {
    const stored = await repos.checkStatuses.getForUpdate(check.accountId, check.id);
    const previous = stored ? statusStateOf(stored) : null;
    const next = nextCheckStatus(previous, finalRunOf(row, run.sslDaysRemaining), locationsOf(run.input));
    if (stored) await repos.checkStatuses.update(check.accountId, check.id, check.name, next);
    else if (!(await repos.checkStatuses.insertIfAbsent(check.accountId, check.id, check.name, next))) continue;
    const before = previous ? checkHealth(previous) : null;
    const after = checkHealth(next);
    if (before === after) return null;
    const status = await repos.checkStatuses.get(check.accountId, check.id);
    return { previous: before, current: after, status: toCheckStatusView(status!) };
  }
  throw new Error(`the status of check ${check.id} could be neither created nor locked`);
}

