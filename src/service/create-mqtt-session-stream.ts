import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { EventBus } from '../events/event-bus.js';
import type { Store } from '../store/create-store.js';
import { toResultView } from '../contract/result-view.js';
import { toRunAssetsRef } from '../domain/check-run-assets.js';

/** Where one session's live messages go: the CLI's suite id and each check's sequence id. */
export interface SessionStreamRoute {
  accountId: string;
  /** `checkRunSuiteId` the CLI subscribed under. */
  checkRunSuiteId: string;
  /** Sequence id the CLI knows each check of the session by (check id → sequence id). */
  sequenceIds: Record<string, string>;
}

/** Options of createMqttSessionStream. */
export interface MqttSessionStreamOptions {
  bus: EventBus;
  store: Store;
  logger: Logger;
  publish(topic: string, message: unknown): Promise<void>;
  /** Sessions whose first events arrive before they are registered, kept at most. */
  maxPending?: number;
}

interface Followed extends SessionStreamRoute {
  started: Set<string>;
  finished: Set<string>;
  checkRunIds: Map<string, string>;
  /** Messages of one session are published in order. */
  chain: Promise<void>;
}

const FINAL_ENTRY = new Set(['PASSED', 'FAILED', 'CANCELLED']);
const FINAL_SESSION = new Set(['PASSED', 'FAILED', 'CANCELLED']);

/**
 * Bridges test session updates (the bus's `testSessionUpdated`) to the MQTT topics the `checkly`
 * CLI listens on: `account/<account>/ad-hoc-check-results/<suite>/<sequence>/<checkRun>/<subtopic>`
 * with `run-start` when a check starts, `result` ({result, testResultId, resultType: FINAL}) when
 * it has its result, and `error` (a message) when it ended without one (cancelled, not runnable).
 * Each update carries the whole session, so the bridge compares it with what it sent: updates that
 * arrive before `follow` (the run starts while the route answers) are replayed then.
 */
export function createMqttSessionStream(options: MqttSessionStreamOptions) {
  const { bus, store, logger, publish } = options;
  const maxPending = options.maxPending ?? 1000;
  const followed = new Map<string, Followed>();
  const pending = new Map<string, Record<string, any>>();

  function topic(f: Followed, checkId: string, subtopic: string): string {
    let checkRunId = f.checkRunIds.get(checkId);
    if (!checkRunId) {
      checkRunId = randomUUID();
      f.checkRunIds.set(checkId, checkRunId);
    }
    return `account/${f.accountId}/ad-hoc-check-results/${f.checkRunSuiteId}/${f.sequenceIds[checkId]}/${checkRunId}/${subtopic}`;
  }

  async function resultOf(accountId: string, checkId: string, resultIds: string[]) {
    const rows = [];
    for (const id of resultIds) {
      const row = await store.results.get(accountId, checkId, id);
      if (row) rows.push(row);
    }
    // Parallel runs give several FINAL results; the CLI takes one per check: the worst.
    return rows.find((r) => r.has_failures) ?? rows[0];
  }

  async function send(sessionId: string, f: Followed, session: Record<string, any>) {
    const sessionFinal = FINAL_SESSION.has(String(session.status));
    for (const entry of (session.results ?? []) as Array<Record<string, any>>) {
      const checkId = String(entry.checkId);
      if (!f.sequenceIds[checkId] || f.finished.has(checkId)) continue;
      const status = String(entry.status);
      if (status !== 'PENDING' && !f.started.has(checkId)) {
        f.started.add(checkId);
        await publish(topic(f, checkId, 'run-start'), {});
      }
      if (!FINAL_ENTRY.has(status) && !sessionFinal) continue;
      f.finished.add(checkId);
      const row = FINAL_ENTRY.has(status) && Array.isArray(entry.resultIds) && entry.resultIds.length > 0
        ? await resultOf(f.accountId, checkId, entry.resultIds.map(String))
        : undefined;
      if (row) {
        // `assets` points at the result's log and check-run data (/next/assets/...): the CLI prints a failure's reason from them.
        const view = toResultView(row);
        const assets = toRunAssetsRef({ testSessionId: sessionId }, view);
        await publish(topic(f, checkId, 'result'), { result: { ...view, assets }, testResultId: view.id, resultType: 'FINAL' });
      } else {
        const why = status === 'CANCELLED' || session.status === 'CANCELLED' ? 'The test session was cancelled before this check ran' : 'The check ended without a result';
        await publish(topic(f, checkId, 'error'), why);
      }
    }
    if (sessionFinal) followed.delete(sessionId);
  }

  function enqueue(sessionId: string, f: Followed, session: Record<string, any>) {
    f.chain = f.chain
      .then(() => send(sessionId, f, session))
      .catch((err: unknown) => logger.error({ err, testSessionId: sessionId }, 'publishing test session progress over MQTT failed'));
  }

  const unsubscribe = bus.subscribe('testSessionUpdated', (event) => {
    const f = followed.get(event.testSessionId);
    if (f) {
      if (f.accountId === event.accountId) enqueue(event.testSessionId, f, event.testSession);
      return;
    }
    // Possibly a session whose route has not registered yet: keep its newest state a little while.
    pending.delete(event.testSessionId);
    pending.set(event.testSessionId, { accountId: event.accountId, session: event.testSession });
    while (pending.size > maxPending) pending.delete(pending.keys().next().value!);
  });

  return {
    /** Starts publishing a session's progress; what happened already is sent at once. */
    follow(testSessionId: string, route: SessionStreamRoute): void {
      const f: Followed = { ...route, started: new Set(), finished: new Set(), checkRunIds: new Map(), chain: Promise.resolve() };
      followed.set(testSessionId, f);
      const early = pending.get(testSessionId);
      pending.delete(testSessionId);
      if (early && early.accountId === route.accountId) enqueue(testSessionId, f, early.session);
    },
    close(): void {
      unsubscribe();
      followed.clear();
      pending.clear();
    },
  };
}
export type MqttSessionStream = ReturnType<typeof createMqttSessionStream>;
