import { heartbeatNotRunnable } from '../domain/heartbeat-not-runnable.js';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { RunOverrides } from '../domain/run-overrides.js';
import type { SessionLeases } from './create-session-leases.js';
import { cleanErrorMessage, errorHash } from '../domain/clean-error-message.js';
import { LookoutError, assertValid, notFound } from '../domain/lookout-error.js';
import { BROKEN_ENTRY_OUTCOME, testSessionEntryOutcome, type EntryFinal } from '../domain/test-session-entry-outcome.js';
import type { EventBus } from '../events/event-bus.js';
import type { Runner } from '../runner/create-runner.js';
import type { Store } from '../store/create-store.js';
import { idleOfPlacement } from '../contract/check-status-view.js';
import { endUnresumableSession } from './end-unresumable-session.js';
import { toTestSessionErrorGroupView, toTestSessionView } from './test-session-view.js';

export { toTestSessionErrorGroupView, toTestSessionView } from './test-session-view.js';
import type { ClaimedTestSession, TestSessionCheckEntry, TestSessionRow } from '../store/test-sessions-repository.js';

/** Final states of a test session (spec "States"). */
export const FINAL_TEST_SESSION_STATES = ['PASSED', 'FAILED', 'CANCELLED'] as const;


/** What triggers a session. */
export interface TriggerInput {
  checkIds?: string[];
  /** Each entry is a set of tags a check must all carry; a check matching any entry runs. */
  tags?: string[][];
  name?: string;
  runLocation?: string;
  environment?: string;
  /** What the session's runs change about the checks (run-time variables, retries); never stored. */
  overrides?: RunOverrides;
}

/** What a `trigger` session keeps for another process to resume it (migration 024). */
interface TriggerJob {
  overrides?: RunOverrides;
}

/** An entry that has its FINAL result: never run again. */
const isDone = (e: TestSessionCheckEntry) => e.status === 'PASSED' || e.status === 'FAILED';

/** Options of the test session service. */
export interface TestSessionServiceOptions {
  store: Store;
  bus: EventBus;
  runner: Runner;
  logger: Logger;
  /** Checks of one session run at once at most. */
  concurrency?: number;
  /** Leases the sessions this process runs (absent: sessions are stored unleased). */
  leases?: SessionLeases;
  /** Base URL of the console (LOOKOUT_PUBLIC_URL): sessions' `testSessionLink` points at their page there. */
  publicUrl?: string;
}

/**
 * Test sessions: checks triggered now (from CI/CD), run with bounded concurrency, their FINAL
 * results deciding PASSED or FAILED. Runs of a session stay out of the checks' statuses, alerts
 * and error groups; their errors are grouped per account as test session error groups.
 * Long by design: an object of short use-case methods (one per route) over the same store and bus; the module is the unit, not the closure.
 */
export function createTestSessionService(options: TestSessionServiceOptions) {
  const { store, bus, runner, logger, leases } = options;
  const concurrency = options.concurrency ?? 5;
  const cancelled = new Set<string>();
  const inFlight = new Set<Promise<void>>();
  // Closing: runs in flight finish, no further check starts, and the rest is handed over.
  let closing = false;
  const owner = leases?.lease.owner ?? null;
  const view = (row: TestSessionRow) => toTestSessionView(row, options.publicUrl);

  async function publish(row: TestSessionRow) {
    await bus.publish({ type: 'testSessionUpdated', accountId: row.account_id, testSessionId: row.id, testSession: view(row) });
  }

  async function execute(
    accountId: string, id: string, entries: TestSessionCheckEntry[], environment: string | null, runLocation: string | null, overrides?: RunOverrides,
    errorGroupIds: string[] = [],
  ) {
    let next = 0;
    // Set once a save finds the session no longer ours (cancelled in another process, or taken over).
    let lost = false;
    const persist = async (final: boolean) => {
      const isCancelled = cancelled.has(id);
      const status = isCancelled ? 'CANCELLED' : !final ? 'RUNNING' : entries.some((e) => e.status === 'FAILED') ? 'FAILED' : 'PASSED';
      if (!(await store.testSessions.save(id, { status, results: entries, errorGroupIds, stopped: final || isCancelled }, owner))) {
        lost = true;
        return;
      }
      const row = await store.testSessions.get(accountId, id);
      if (row) await publish(row);
    };
    const worker = async () => {
      while (next < entries.length && !closing && !lost) {
        const entry = entries[next++]!;
        if (isDone(entry)) continue;
        if (cancelled.has(id)) {
          entry.status = 'CANCELLED';
          continue;
        }
        entry.status = 'RUNNING';
        await persist(false);
        try {
          const outcome = await runner.runNow(accountId, entry.checkId, { testSessionId: id, location: runLocation ?? undefined, overrides });
          entry.sequenceId = outcome.sequenceId;
          entry.resultIds = outcome.finals.map((r) => String(r.id));
          Object.assign(entry, testSessionEntryOutcome(outcome.finals as EntryFinal[]));
          for (const r of outcome.finals) {
            for (const message of resultErrors(r)) {
              const cleaned = cleanErrorMessage(message);
              const gid = await store.testSessions.recordError(accountId, { id: randomUUID(), hash: errorHash(cleaned), raw: message, cleaned, environment, seenAt: new Date() });
              if (!errorGroupIds.includes(gid)) errorGroupIds.push(gid);
            }
          }
        } catch (err) {
          logger.warn({ err, checkId: entry.checkId, testSessionId: id }, 'test session run failed');
          Object.assign(entry, BROKEN_ENTRY_OUTCOME);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, entries.length) }, worker));
    if (!lost && closing && !cancelled.has(id) && entries.some((e) => !isDone(e))) {
      // Shutting down: keep what finished, and let a live process run the rest now rather than after the lease.
      for (const e of entries) if (!isDone(e)) e.status = 'PENDING';
      await persist(false);
      if (!lost) await leases?.handOver(id);
    } else if (!lost) {
      await persist(true);
    }
    cancelled.delete(id);
  }

  /** Runs `entries` of session `id` under this process's lease, until done or handed over. */
  function start(accountId: string, id: string, entries: TestSessionCheckEntry[], job: TriggerJob, environment: string | null, runLocation: string | null, errorGroupIds?: string[]) {
    leases?.hold(id);
    const p = execute(accountId, id, entries, environment, runLocation, job.overrides, errorGroupIds)
      .catch((err) => logger.error({ err, testSessionId: id }, 'test session failed'))
      .finally(() => {
        leases?.release(id);
        inFlight.delete(p);
      });
    inFlight.add(p);
  }

  return {
    /**
     * Creates a session for the selected checks and starts running them; resolves with the new
     * session. Without `runLocation`, a selected check with nowhere to run (idleReason) refuses
     * the whole session with CONFLICT (409), as "run now" does.
     */
    async trigger(accountId: string, input: TriggerInput) {
      if (input.checkIds?.length) {
        const owned = await store.testSessions.checksOwned(accountId, input.checkIds);
        assertValid(input.checkIds.flatMap((id, i) => (owned.has(id) ? [] : [{ key: `checkIds.${i}`, message: `check ${id} does not exist` }])));
      }
      const matched = await store.testSessions.selectChecks(accountId, { checkIds: input.checkIds, tags: input.tags });
      if (matched.length === 0) throw new LookoutError('NOT_FOUND', 'No activated check matches the trigger');
      // A heartbeat has nothing to run: asked for by id, or all there is, the trigger is refused; matched by tags among others, it is left out.
      const beat = matched.find((c) => c.check_type === 'HEARTBEAT');
      const checks = matched.filter((c) => c.check_type !== 'HEARTBEAT');
      if (beat && (checks.length === 0 || input.checkIds?.includes(beat.id))) throw heartbeatNotRunnable(beat.id, beat.name);
      // Without a runLocation each check runs where it says: one with nowhere to run would "pass" with no result.
      if (!input.runLocation) {
        const placements = await store.checkStatuses.placements(accountId, checks.map((c) => c.id));
        const idle = placements.flatMap((p) => {
          const reason = idleOfPlacement(p);
          return reason ? [{ checkId: p.check_id, name: p.name, ...reason }] : [];
        });
        if (idle.length > 0) {
          const names = idle.slice(0, 10).map((c) => `"${c.name}" (${c.checkId})`).join(', ');
          throw new LookoutError('CONFLICT', `Cannot run ${idle.length} of the selected checks: they have nowhere to run (${names}). ${idle[0]!.message}`, {
            attributes: { idle: idle.slice(0, 100) },
          });
        }
      }
      const id = randomUUID();
      const entries: TestSessionCheckEntry[] = checks.map((c) => ({ checkId: c.id, name: c.name, checkType: c.check_type, status: 'PENDING', resultIds: [], sequenceId: null }));
      // The overrides' run-time variables are secrets: stored only in `job`, which no view shows and the session's end clears.
      const job: TriggerJob = input.overrides ? { overrides: input.overrides } : {};
      await store.testSessions.insert({
        id, account_id: accountId, name: input.name ?? `Test session ${new Date().toISOString()}`, status: 'RUNNING',
        run_location: input.runLocation ?? null, environment: input.environment ?? null, check_ids: checks.map((c) => c.id), results: entries,
        kind: 'trigger', job: { ...job },
      }, leases?.lease);
      start(accountId, id, entries.map((e) => ({ ...e })), job, input.environment ?? null, input.runLocation ?? null);
      const row = (await store.testSessions.get(accountId, id))!;
      await publish(row);
      return view(row);
    },

    async get(accountId: string, id: string) {
      const row = await store.testSessions.get(accountId, id);
      if (!row) throw notFound('Test session', id);
      return view(row);
    },

    /** A page of sessions, newest first; with `checkId`, only the sessions that ran that check. */
    async list(accountId: string, limit: number, nextId?: string, checkId?: string) {
      let after: { createdAt: Date; id: string } | undefined;
      if (nextId) {
        const cursor = await store.testSessions.get(accountId, nextId);
        if (!cursor) throw new LookoutError('VALIDATION', '"nextId" is not a cursor of this list', { issues: [{ key: 'nextId', message: 'is unknown' }], source: 'query' });
        after = { createdAt: cursor.created_at, id: cursor.id };
      }
      const rows = await store.testSessions.list(accountId, limit + 1, after, checkId);
      const page = rows.slice(0, limit);
      return { length: page.length, entries: page.map(view), nextId: rows.length > limit ? page[page.length - 1]!.id : null };
    },

    /**
     * Waits up to `maxWaitSeconds` for the session to reach a final state: resolves with it, or
     * throws TIMEOUT (408 with Retry-After) so the caller asks again.
     */
    async awaitCompletion(accountId: string, id: string, maxWaitSeconds: number) {
      const isFinal = (status: string) => (FINAL_TEST_SESSION_STATES as readonly string[]).includes(status);
      const current = await this.get(accountId, id);
      if (isFinal(current.status)) return current;
      const done = await new Promise<Record<string, any> | null>((resolve) => {
        const timer = setTimeout(() => {
          unsubscribe();
          resolve(null);
        }, maxWaitSeconds * 1000);
        const unsubscribe = bus.subscribe('testSessionUpdated', (e) => {
          if (e.testSessionId !== id || !isFinal(e.testSession.status)) return;
          clearTimeout(timer);
          unsubscribe();
          resolve(e.testSession);
        });
      });
      if (done) return done;
      const again = await this.get(accountId, id);
      if (isFinal(again.status)) return again;
      throw new LookoutError('TIMEOUT', `Test session ${id} is still running; call again`, { retryAfter: 1 });
    },

    async cancel(accountId: string, id: string) {
      const row = await store.testSessions.get(accountId, id);
      if (!row) throw notFound('Test session', id);
      if (row.status === 'RUNNING') {
        cancelled.add(id);
        await store.testSessions.save(id, { status: 'CANCELLED', results: row.results, errorGroupIds: row.error_group_ids, stopped: true });
      }
      const updated = (await store.testSessions.get(accountId, id))!;
      await publish(updated);
      return view(updated);
    },

    async getErrorGroup(accountId: string, id: string) {
      const row = await store.testSessions.getErrorGroup(accountId, id);
      if (!row) throw notFound('Test session error group', id);
      return toTestSessionErrorGroupView(row);
    },

    async errorGroupsOf(accountId: string, sessionId: string) {
      const session = await store.testSessions.get(accountId, sessionId);
      if (!session) throw notFound('Test session', sessionId);
      return (await store.testSessions.errorGroups(accountId, session.error_group_ids)).map(toTestSessionErrorGroupView);
    },

    async archiveErrorGroup(accountId: string, id: string, flags: { archiveForEver?: boolean; archivedUntilNextEvent?: boolean }) {
      const row = await store.testSessions.archiveErrorGroup(accountId, id, flags);
      if (!row) throw notFound('Test session error group', id);
      return toTestSessionErrorGroupView(row);
    },

    /**
     * Runs a session this process took over from one that died: entries with a FINAL result are
     * kept; an entry whose FINAL was recorded but not yet saved in the session takes that result;
     * the others (their process died before or during their run) run now. A session stored
     * without its job cannot be resumed and ends FAILED (see endUnresumableSession).
     */
    async resume(session: ClaimedTestSession): Promise<void> {
      if (!session.job) {
        await endUnresumableSession({ store, bus, logger, owner, publicUrl: options.publicUrl }, session, 'its process stopped and it was started before sessions could be resumed');
        leases?.release(session.id);
        return;
      }
      const finals = await store.testSessions.finals(session.id);
      const entries = session.results.map((e): TestSessionCheckEntry => {
        if (isDone(e)) return { ...e };
        const recorded = finals.filter((f) => f.checkId === e.checkId);
        if (recorded.length === 0) return { ...e, status: 'PENDING', resultIds: [] };
        return { ...e, ...testSessionEntryOutcome(recorded), resultIds: recorded.map((f) => f.id), sequenceId: recorded[0]!.sequenceId };
      });
      start(session.account_id, session.id, entries, session.job as TriggerJob, session.environment, session.run_location, [...session.error_group_ids]);
    },

    /** Lets the checks in flight finish and hands each unfinished session over to a live process. */
    async close(): Promise<void> {
      closing = true;
      await Promise.allSettled([...inFlight]);
    },
  };
}
export type TestSessionService = ReturnType<typeof createTestSessionService>;

/** Error messages of a result's REST view. */
function resultErrors(result: Record<string, any>): string[] {
  const out: string[] = [];
  const api = result.apiCheckResult;
  if (api?.requestError) out.push(String(api.requestError));
  for (const part of [result.browserCheckResult, result.multiStepCheckResult]) {
    for (const e of part?.errors ?? []) out.push(typeof e === 'string' ? e : String(e.message ?? JSON.stringify(e)));
  }
  for (const e of result.errors ?? []) out.push(typeof e === 'string' ? e : String(e.message ?? ''));
  if (out.length === 0 && result.hasFailures) {
    for (const a of api?.assertions ?? []) if (a.passed === false) out.push(`Assertion failed: ${a.source} ${a.property ?? ''} ${a.comparison} ${a.target ?? ''}`.replace(/\s+/g, ' '));
  }
  return out.filter(Boolean);
}
