import { LookoutError } from '../domain/lookout-error.js';
import { testSessionConsoleUrl } from '../domain/test-session-console-url.js';
import type { Store } from '../store/create-store.js';
import type { TestSessionService } from './test-session-service.js';

/** What `checkly checks run` asks for (`POST /v2/check-sessions/trigger`). */
export interface CheckSessionTrigger {
  target?: { matchTags?: string[][]; checkId?: string[] };
}

const elapsed = (view: Record<string, any>) => {
  const start = Date.parse(view.startedAt ?? view.created_at);
  return Math.max(0, (view.stoppedAt ? Date.parse(view.stoppedAt) : Date.now()) - start);
};

/** A test session of one check as a check session (the shape `checkly checks run` reads). */
function toCheckSessionView(view: Record<string, any>, link: string): Record<string, any> {
  const entry = view.results?.[0] ?? {};
  return {
    checkSessionId: view.id, checkSessionLink: link, checkId: entry.checkId ?? view.checkIds?.[0], checkType: entry.checkType ?? null, name: entry.name ?? view.name,
    status: view.status === 'RUNNING' ? (entry.status === 'PENDING' ? 'STARTED' : 'PROGRESS') : view.status,
    startedAt: view.startedAt ?? view.created_at, stoppedAt: view.stoppedAt, timeElapsed: elapsed(view),
    runLocations: view.runLocation ? [view.runLocation] : [], runSource: 'CHECKS_RUN',
  };
}

/**
 * Check sessions (`checkly checks run`): each selected deployed check runs now where it is configured
 * to, as a test session of its own (the trigger service's run: recorded, no alerts, out of the check's
 * status). Its id is the session's id, so its completion is the session's.
 */
export function createCheckSessionService({ store, testSessions, publicUrl }: { store: Store; testSessions: TestSessionService; publicUrl: string }) {
  // A check session is a test session: its links are the session's console pages.
  const link = (accountId: string, id: string, resultId?: string) => testSessionConsoleUrl(publicUrl, accountId, id, resultId);
  return {
    /** Starts one session per activated, runnable check matched; none matched is NOT_FOUND (the CLI's "no matching checks"). */
    async trigger(accountId: string, request: CheckSessionTrigger) {
      const checkIds = request.target?.checkId;
      const tags = request.target?.matchTags?.map((all) => all.map((t) => t.trim()).filter(Boolean)).filter((all) => all.length > 0);
      const owned = checkIds?.length ? await store.testSessions.checksOwned(accountId, checkIds) : undefined;
      const ids = owned ? checkIds!.filter((id) => owned.has(id)) : undefined;
      const checks = ids?.length === 0 ? [] : (await store.testSessions.selectChecks(accountId, { checkIds: ids, tags: tags?.length ? tags : undefined }))
        .filter((c) => c.check_type !== 'HEARTBEAT');
      if (checks.length === 0) throw new LookoutError('NOT_FOUND', 'No matching checks: no activated, runnable check carries the tags or ids asked for');
      const sessions = [];
      for (const c of checks) {
        const view = await testSessions.trigger(accountId, { checkIds: [c.id], name: `checks run: ${c.name}` });
        sessions.push(toCheckSessionView(view, link(accountId, view.id)));
      }
      return { sessions };
    },

    /** Waits like the session's completion; the finished session carries its check's FINAL results. */
    async completion(accountId: string, id: string, maxWaitSeconds: number) {
      const view = await testSessions.awaitCompletion(accountId, id, maxWaitSeconds);
      const results = [];
      for (const entry of view.results ?? []) {
        for (const resultId of entry.resultIds ?? []) {
          const row = await store.results.get(accountId, entry.checkId, resultId);
          if (!row) continue;
          results.push({
            checkResultId: row.id, checkResultLink: link(accountId, id, row.id), checkId: row.check_id,
            checkType: row.check_type, name: row.name, runLocation: row.run_location, resultType: row.result_type, hasErrors: row.has_errors,
            hasFailures: row.has_failures, isDegraded: row.is_degraded, aborted: row.is_cancelled, isCancelled: row.is_cancelled,
            responseTime: row.response_time, startedAt: row.started_at.toISOString(), stoppedAt: row.stopped_at.toISOString(),
          });
        }
      }
      return { ...toCheckSessionView(view, link(accountId, id)), results };
    },
  };
}
export type CheckSessionService = ReturnType<typeof createCheckSessionService>;
