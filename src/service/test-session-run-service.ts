import { agenticCheckIssues, agenticModelMissingMessage } from '../domain/agentic-check-issues.js';
import { toRunAssetsRef } from '../domain/check-run-assets.js';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { SessionLeases } from './create-session-leases.js';
import type { CheckType } from '../domain/catalog.js';
import { stripServerOwnedFields, withCheckDefaults, type CheckData } from '../domain/check-defaults.js';
import { LookoutError, notFound, type Issue } from '../domain/lookout-error.js';
import { resultMeasurements } from '../domain/result-measurements.js';
import { cleanErrorMessage, errorHash } from '../domain/clean-error-message.js';
import { runErrorMessages } from '../domain/run-error-messages.js';
import { playwrightConfigIssues } from '../domain/playwright-config.js';
import { resolveSharedFiles, SHARED_FILE_KEYS } from '../domain/shared-file-refs.js';
import { monitorRuleIssues } from '../domain/monitor-rule-issues.js';
import { monitorToolIssues } from './monitor-tool-issues.js';
import { codeBundleIssues, storageDirOf } from './code-bundle-issues.js';
import { CHECK_CREATE_SCHEMAS } from '../contract/check-schemas.js';
import { CheckGroupCreate } from '../contract/check-group-schemas.js';
import { applyGroupSettings } from '../domain/apply-group-settings.js';
import { withGroupDefaults, type GroupData } from '../domain/group-defaults.js';
import { BROKEN_ENTRY_OUTCOME, testSessionEntryOutcome, type EntryFinal } from '../domain/test-session-entry-outcome.js';
import { validateBody } from '../contract/validation.js';
import type { EventBus } from '../events/event-bus.js';
import type { Executor, RunnableCheck } from '../runner/executor.js';
import { prepareRun } from '../runner/prepare-run.js';
import { directRunReads } from '../runner/run-reads.js';
import { runCheck, type RecordInput } from '../runner/run-check.js';
import type { Store } from '../store/create-store.js';
import type { ClaimedTestSession, TestSessionCheckEntry } from '../store/test-sessions-repository.js';
import { endUnresumableSession, NOT_RESUMABLE } from './end-unresumable-session.js';
import { toResultView } from '../contract/result-view.js';
import { toTestSessionView } from './test-session-view.js';

/**
 * Check types `checkly test` can run as submitted. BROWSER and MULTI_STEP jobs carry their script
 * and its local files (`dependencies`) in the job itself; PLAYWRIGHT jobs name the code bundle the
 * CLI uploaded just before (`codeBundlePath`).
 */
/**
 * A submitted check as it runs in the group the CLI sends beside it (`group`, the group's construct
 * as deploy would create it): the group's environment variables, API defaults and scripts apply as
 * they do to a deployed check (see applyGroupSettings). The group is validated like a group create
 * (400 naming `checkRunJobs.<n>.group.<key>`); where it runs is still the session's location.
 */
function inJobGroup(type: CheckType, data: CheckData, group: unknown, i: number): CheckData {
  if (group == null || typeof group !== 'object') return data;
  const { v: _version, privateLocations: _refs, alertChannelSubscriptions: _subs, ...body } = group as Record<string, any>;
  const valid = validateBody<Record<string, any>>(CheckGroupCreate, body, `checkRunJobs.${i}.group`);
  const { checkType: _type, ...applied } = applyGroupSettings({ ...data, checkType: type }, withGroupDefaults({ ...valid, name: String(valid.name ?? '') } as GroupData), []);
  return { ...applied, locations: data.locations, privateLocations: data.privateLocations } as CheckData;
}

export const SUBMITTED_CHECK_TYPES = ['API', 'URL', 'TCP', 'DNS', 'ICMP', 'BROWSER', 'MULTI_STEP', 'PLAYWRIGHT', 'SSL', 'TRACEROUTE', 'GRPC'] as const;

/** Keys the CLI adds to a check's payload for a test run, not part of the check itself. */
const RUN_ONLY_KEYS = ['checkType', 'logicalId', 'filePath', 'sourceInfo', 'group', 'groupId', 'testRetryStrategy', 'alertChannelSubscriptions'];

/** One submitted check, ready to run. */
interface SubmittedCheck {
  logicalId: string;
  check: RunnableCheck;
  sequenceId: string;
  checkRunId: string;
}

/**
 * What a `run` session keeps for another process to resume it (migration 024): the checks as
 * validated, with the ids the CLI follows them by. Their variables may be secret: never shown.
 */
interface RunJob {
  suiteId: string;
  location: string;
  submitted: SubmittedCheck[];
}

/** An entry that has its FINAL result: never run again. */
const isDone = (e: TestSessionCheckEntry) => e.status === 'PASSED' || e.status === 'FAILED';

/** What `POST /v1/test-sessions/run` carries (the parts Lookout reads). */
export interface SubmittedRun {
  name?: string;
  checkRunJobs: Record<string, any>[];
  runLocation?: string | { type: string; region?: string; slugName?: string };
  environment?: string | null;
  /**
   * The project's files the jobs share (`[{path, content}]`): CLI v8 sends a job's `dependencies`
   * as indexes into this list.
   */
  sharedFiles?: unknown[];
}

/** Options of the service. */
export interface TestSessionRunServiceOptions {
  store: Store;
  bus: EventBus;
  logger: Logger;
  publicUrl: string;
  executors: Partial<Record<CheckType, Executor>>;
  /** Publishes a live message to the CLI (MQTT). */
  publish(topic: string, message: unknown): Promise<void>;
  /** Submitted checks of one session run at once at most. */
  concurrency?: number;
  /** Whether this server has a model for agentic checks: AGENTIC jobs run with one and are refused without (naming the settings). */
  agenticModelConfigured?: boolean;
  /** Leases the sessions this process runs (absent: sessions are stored unleased). */
  leases?: SessionLeases;
  /** Folder of run assets and uploaded code bundles: a PLAYWRIGHT job naming a bundle never uploaded refuses the run (absent: not checked). */
  assetsDir?: string;
}

/**
 * `checkly test`: checks run as submitted, never stored as checks, in one test session. Each job is
 * validated as a check create of its type would be; a type that needs the code bundle (Playwright
 * check suites) or cannot run now (heartbeat; agentic without a configured model) refuses the whole run with 400 naming it.
 * BROWSER and MULTI_STEP jobs run their `script` with the executor of scheduled checks, their
 * `dependencies` (indexes into `sharedFiles`, resolved here) written beside it for the run. Results are kept with the session (`/v1/test-sessions/{id}/results/{resultId}`) and
 * streamed to the CLI's MQTT topics as they come (ATTEMPT and FINAL).
 * Long by design: an object of short use-case methods (one per route) over the same store and bus; the module is the unit, not the closure.
 */
export function createTestSessionRunService(options: TestSessionRunServiceOptions) {
  const { store, bus, logger, publicUrl, executors, publish } = options;
  const concurrency = options.concurrency ?? 5;
  const shutdown = new AbortController();
  const inFlight = new Set<Promise<void>>();
  // Closing: runs in flight finish, no further check starts, and the rest is handed over.
  let closing = false;
  const owner = options.leases?.lease.owner ?? null;

  function toSubmitted(accountId: string, jobs: Record<string, any>[], sharedFiles: unknown[]): SubmittedCheck[] {
    const issues: Issue[] = [];
    const out: SubmittedCheck[] = [];
    jobs.forEach((job, i) => {
      const type = String(job.checkType ?? '');
      if (!(SUBMITTED_CHECK_TYPES as readonly string[]).includes(type) && type !== 'AGENTIC') {
        issues.push({ key: `checkRunJobs.${i}.checkType`, message: `${type || 'this'} checks cannot run from \`checkly test\` on Lookout yet (supported: ${SUBMITTED_CHECK_TYPES.join(', ')})` });
        return;
      }
      if (type === 'AGENTIC' && options.agenticModelConfigured !== true) {
        issues.push({ key: `checkRunJobs.${i}.checkType`, message: agenticModelMissingMessage(String(job.name ?? job.logicalId ?? `check-${i}`)) });
        return;
      }
      const body: Record<string, any> = { ...job };
      for (const key of RUN_ONLY_KEYS) delete body[key];
      // Test runs retry as the CLI says (`--retries`), not as the check would when scheduled; validated as a check's own.
      body.retryStrategy = job.testRetryStrategy ?? null;
      let unresolved = false;
      for (const key of SHARED_FILE_KEYS) {
        if (!Array.isArray(job[key])) continue;
        const resolved = resolveSharedFiles(job[key], sharedFiles, `checkRunJobs.${i}.${key}`);
        if ('issues' in resolved) {
          issues.push(...resolved.issues);
          unresolved = true;
        } else {
          body[key] = resolved.files;
        }
      }
      if (unresolved) return;
      try {
        const valid = stripServerOwnedFields(validateBody<Record<string, any>>(CHECK_CREATE_SCHEMAS[type as CheckType], body, `checkRunJobs.${i}`));
        // Keys of playwrightConfig the runner cannot apply refuse the run, as they refuse a check.
        const configIssues = playwrightConfigIssues(valid.playwrightConfig, `checkRunJobs.${i}.playwrightConfig`);
        if (configIssues.length > 0) {
          issues.push(...configIssues);
          return;
        }
        const data = inJobGroup(type as CheckType, withCheckDefaults(type as CheckType, valid as CheckData, publicUrl), job.group, i);
        // The agentic model setting, and the newer monitors' own rules and tools, as creating them would check.
        const jobIssues = [
          ...agenticCheckIssues(type as CheckType, valid, options.agenticModelConfigured === true),
          ...monitorRuleIssues(type as CheckType, data),
          ...monitorToolIssues(type as CheckType),
        ];
        if (jobIssues.length > 0) {
          issues.push(...jobIssues.map((x) => ({ key: `checkRunJobs.${i}.${x.key}`, message: x.message })));
          return;
        }
        out.push({
          logicalId: String(job.logicalId ?? `check-${i}`),
          check: { id: randomUUID(), accountId, checkType: type as CheckType, name: String(data.name ?? job.name ?? type), data, groupId: null },
          sequenceId: randomUUID(),
          checkRunId: String(job.sourceInfo?.checkRunId ?? randomUUID()),
        });
      } catch (err) {
        if (err instanceof LookoutError && err.code === 'VALIDATION') issues.push(...err.issues);
        else throw err;
      }
    });
    if (issues.length > 0) throw new LookoutError('VALIDATION', `Some submitted checks cannot run: ${issues.map((x) => `${x.key} ${x.message}`).join('; ')}`, { issues });
    return out;
  }

  /** Playwright check suites run from a bundle the CLI uploaded just before: one never uploaded refuses the run now, not at run time. */
  async function refuseMissingBundles(accountId: string, submitted: SubmittedCheck[]): Promise<void> {
    // toSubmitted refuses the run if any job is invalid, so submitted[i] is job i.
    const issues = (await Promise.all(submitted.map(async (s, i) => (await codeBundleIssues(options.assetsDir ? storageDirOf(options.assetsDir) : undefined, accountId, s.check.checkType, s.check.data))
      .map((x) => ({ key: `checkRunJobs.${i}.${x.key}`, message: `check "${s.logicalId}": ${x.message}` }))))).flat();
    if (issues.length > 0) throw new LookoutError('VALIDATION', `Some submitted checks cannot run: ${issues.map((x) => `${x.key} ${x.message}`).join('; ')}`, { issues });
  }

  async function execute(
    accountId: string, sessionId: string, suiteId: string, location: string, environment: string | null, submitted: SubmittedCheck[], entries: TestSessionCheckEntry[],
    errorGroupIds: string[] = [],
  ) {
    const topic = (s: SubmittedCheck, sub: string) => `account/${accountId}/ad-hoc-check-results/${suiteId}/${s.sequenceId}/${s.checkRunId}/${sub}`;
    // Set once a save finds the session no longer ours (cancelled, or taken over after our lease ran out).
    let lost = false;
    const persist = async (final: boolean) => {
      const status = !final ? 'RUNNING' : entries.some((e) => e.status === 'FAILED') ? 'FAILED' : 'PASSED';
      if (!(await store.testSessions.save(sessionId, { status, results: entries, errorGroupIds, stopped: final }, owner))) {
        lost = true;
        return;
      }
      const row = await store.testSessions.get(accountId, sessionId);
      if (row) await bus.publish({ type: 'testSessionUpdated', accountId, testSessionId: sessionId, testSession: toTestSessionView(row, publicUrl) });
    };
    const safePublish = (t: string, message: unknown) => publish(t, message).catch((err: unknown) => logger.warn({ err, topic: t }, 'MQTT publish failed'));
    let next = 0;
    const worker = async () => {
      while (next < submitted.length && !closing && !lost) {
        const i = next++;
        const s = submitted[i]!;
        const entry = entries[i]!;
        if (isDone(entry)) continue;
        entry.status = 'RUNNING';
        await persist(false);
        await safePublish(topic(s, 'run-start'), {});
        try {
          const prepared = await prepareRun(directRunReads(store), s.check);
          const record = async (input: RecordInput) => {
            const view = resultView(input, s.check.id);
            await store.testSessionRunResults.insert(accountId, sessionId, String(view.id), view);
            // Errors of FINAL results are grouped per account, as for every test session.
            if (input.resultType === 'FINAL') {
              for (const raw of runErrorMessages(input.probe)) {
                const cleaned = cleanErrorMessage(raw);
                const gid = await store.testSessions.recordError(accountId, { id: randomUUID(), hash: errorHash(cleaned), raw, cleaned, environment, seenAt: input.probe.startedAt });
                if (!errorGroupIds.includes(gid)) errorGroupIds.push(gid);
              }
            }
            const assets = toRunAssetsRef({ testSessionId: sessionId }, view);
            await safePublish(topic(s, 'result'), { result: { ...view, assets }, testResultId: view.id, resultType: input.resultType });
            return view;
          };
          const outcome = await runCheck({
            check: prepared.check, variables: prepared.variables, clientCertificates: prepared.clientCertificates,
            locations: [location], allLocations: [location], executor: executors[s.check.checkType]!, record,
            signal: shutdown.signal, logger, testSessionId: sessionId,
          });
          entry.resultIds = outcome.finals.map((r) => String(r.id));
          Object.assign(entry, testSessionEntryOutcome(outcome.finals as EntryFinal[]));
        } catch (err) {
          logger.warn({ err, testSessionId: sessionId, logicalId: s.logicalId }, 'submitted check run failed');
          Object.assign(entry, BROKEN_ENTRY_OUTCOME);
          await safePublish(topic(s, 'error'), 'The check could not be run');
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, submitted.length) }, worker));
    if (lost) return;
    if (closing && entries.some((e) => !isDone(e))) {
      // Shutting down: keep what finished, and let a live process run the rest now rather than after the lease.
      for (const e of entries) if (!isDone(e)) e.status = 'PENDING';
      await persist(false);
      if (!lost) await options.leases?.handOver(sessionId);
      return;
    }
    await persist(true);
  }

  /** Runs the session's entries without a FINAL result under this process's lease, until done or handed over. */
  function start(accountId: string, id: string, job: RunJob, environment: string | null, entries: TestSessionCheckEntry[], errorGroupIds?: string[]) {
    options.leases?.hold(id);
    const p = execute(accountId, id, job.suiteId, job.location, environment, job.submitted, entries, errorGroupIds)
      .catch((err: unknown) => logger.error({ err, testSessionId: id }, 'test session run failed'))
      .finally(() => {
        options.leases?.release(id);
        inFlight.delete(p);
      });
    inFlight.add(p);
  }

  return {
    /**
     * Validates the jobs, creates the session and starts running; resolves with what the CLI
     * needs to follow it: the session id, a scheduling id (dispatch is immediate) and the
     * sequence id of each check by logical id.
     */
    async run(accountId: string, input: SubmittedRun) {
      if (!Array.isArray(input.checkRunJobs) || input.checkRunJobs.length === 0) {
        throw new LookoutError('VALIDATION', 'checkRunJobs must list the checks to run', { issues: [{ key: 'checkRunJobs', message: 'must be a non-empty list' }] });
      }
      const submitted = toSubmitted(accountId, input.checkRunJobs, Array.isArray(input.sharedFiles) ? input.sharedFiles : []);
      await refuseMissingBundles(accountId, submitted);
      const loc = input.runLocation;
      const location = (typeof loc === 'string' ? loc : loc?.type === 'PRIVATE' ? loc.slugName : loc?.region) || 'eu-central-1';
      const suiteId = String(input.checkRunJobs[0]?.sourceInfo?.checkRunSuiteId ?? randomUUID());
      const id = randomUUID();
      const entries: TestSessionCheckEntry[] = submitted.map((s) => ({
        checkId: s.check.id, name: s.check.name, checkType: s.check.checkType, status: 'PENDING', resultIds: [], sequenceId: s.sequenceId,
      }));
      const job: RunJob = { suiteId, location, submitted };
      await store.testSessions.insert({
        id, account_id: accountId, name: input.name ?? 'Test session', status: 'RUNNING', run_location: location,
        environment: input.environment ?? null, check_ids: entries.map((e) => e.checkId), results: entries,
        kind: 'run', job: { ...job },
      }, options.leases?.lease);
      start(accountId, id, job, input.environment ?? null, entries);
      return { testSessionId: id, schedulingId: id, sequenceIds: Object.fromEntries(submitted.map((s) => [s.logicalId, s.sequenceId])) };
    },

    /** The dispatch of a run: immediate in Lookout, so SUCCEEDED once the session exists. */
    async scheduling(accountId: string, schedulingId: string) {
      const row = await store.testSessions.get(accountId, schedulingId);
      if (!row) throw notFound('Test session scheduling', schedulingId);
      // A session nothing could resume never ran all its checks: its dispatch failed, and says why.
      const failed = row.end_error?.code === NOT_RESUMABLE;
      return {
        schedulingId, testSessionId: row.id, status: failed ? 'FAILED' : 'SUCCEEDED', checksTotal: row.check_ids.length,
        error: failed ? row.end_error : null, createdAt: row.created_at.toISOString(),
      };
    },

    /**
     * Runs a session this process took over from one that died, with the checks as they were
     * submitted and the sequence ids the CLI follows: entries with a FINAL result are kept; one
     * whose FINAL was stored but not yet saved in the session takes that result; the others run
     * again (an ATTEMPT of a dead run stays an ATTEMPT). Without its job the session ends FAILED.
     */
    async resume(session: ClaimedTestSession): Promise<void> {
      const job = session.job as RunJob | null;
      if (!job || !Array.isArray(job.submitted) || job.submitted.length !== session.results.length) {
        await endUnresumableSession({ store, bus, logger, owner, publicUrl }, session, 'its process stopped and the checks it was submitted with are not stored');
        options.leases?.release(session.id);
        return;
      }
      const finals = await store.testSessionRunResults.finals(session.id);
      const entries = session.results.map((e): TestSessionCheckEntry => {
        if (isDone(e)) return { ...e };
        const recorded = finals.filter((r) => r.checkId === e.checkId);
        if (recorded.length === 0) return { ...e, status: 'PENDING', resultIds: [] };
        return { ...e, ...testSessionEntryOutcome(recorded as EntryFinal[]), resultIds: recorded.map((r) => String(r.id)) };
      });
      start(session.account_id, session.id, job, session.environment, entries, [...session.error_group_ids]);
    },

    /** One result of a session: a submitted check's, or a deployed check's run in it. */
    async result(accountId: string, sessionId: string, resultId: string) {
      const session = await store.testSessions.get(accountId, sessionId);
      if (!session) throw notFound('Test session', sessionId);
      const own = await store.testSessionRunResults.get(accountId, sessionId, resultId);
      if (own) return own;
      const entry = session.results.find((e) => e.resultIds.includes(resultId));
      const row = entry ? await store.results.get(accountId, entry.checkId, resultId) : undefined;
      if (!row) throw notFound('Test session result', resultId);
      return toResultView(row);
    },

    /** Lets the checks in flight finish and hands each unfinished session over to a live process. */
    async close(): Promise<void> {
      closing = true;
      await Promise.allSettled([...inFlight]);
      shutdown.abort();
    },
  };
}
export type TestSessionRunService = ReturnType<typeof createTestSessionRunService>;

/** The REST view of a submitted check's attempt, as record-run would store it. */
function resultView(input: RecordInput, checkId: string): Record<string, any> {
  const { probe, check } = input;
  const m = resultMeasurements(probe);
  const details = probe.details || probe.assertions.length > 0
    ? { ...(probe.details ?? {}), assertions: probe.details?.assertions ?? probe.assertions }
    : null;
  return toResultView({
    id: randomUUID(), account_id: check.accountId, check_id: checkId, check_run_id: 0, sequence_id: input.sequenceId,
    result_type: input.resultType, attempts: input.attempts, name: check.name, check_type: check.checkType, run_location: input.location,
    has_failures: probe.hasFailures, has_errors: probe.hasErrors, is_degraded: probe.isDegraded,
    is_cancelled: probe.errors.some((e) => e.code === 'CANCELLED'), over_max_response_time: probe.overMaxResponseTime,
    started_at: probe.startedAt, stopped_at: probe.stoppedAt, created_at: new Date(), response_time: probe.responseTime,
    status_code: m.statusCode, error_group_ids: [], test_session_id: null,
    detail: {
      apiCheckResult: probe.apiCheckResult ?? null, browserCheckResult: probe.browserCheckResult ?? null,
      multiStepCheckResult: probe.multiStepCheckResult ?? null, details,
      agenticCheckResult: probe.agenticCheckResult ?? null,
      errors: probe.errors.map((e) => ({ code: e.code, message: e.message })),
    },
  });
}

