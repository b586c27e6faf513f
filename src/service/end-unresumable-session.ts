import type { Logger } from 'pino';
import type { EventBus } from '../events/event-bus.js';
import type { Store } from '../store/create-store.js';
import type { ClaimedTestSession } from '../store/test-sessions-repository.js';
import { toTestSessionView } from './test-session-view.js';

/** The code of `end_error` for a session nothing could resume. */
export const NOT_RESUMABLE = 'NOT_RESUMABLE';

/**
 * Ends a session this process took over but cannot run (what was submitted is gone: it predates
 * stored jobs): FAILED, so CI never reads it as passed, with its unfinished checks FAILED and the
 * reason in `end_error`; never left RUNNING. The checks that had finished keep their results.
 */
export async function endUnresumableSession(
  deps: { store: Store; bus: EventBus; logger: Logger; owner: string | null; publicUrl?: string },
  session: ClaimedTestSession,
  message: string,
): Promise<void> {
  const { store, bus, logger, owner } = deps;
  const results = session.results.map((e) => (e.status === 'PASSED' || e.status === 'FAILED' ? e : { ...e, status: 'FAILED' as const }));
  const saved = await store.testSessions.save(session.id, {
    status: 'FAILED', results, errorGroupIds: session.error_group_ids, stopped: true, endError: { code: NOT_RESUMABLE, message },
  }, owner);
  if (!saved) return;
  logger.warn({ testSessionId: session.id }, `test session ended: ${message}`);
  const row = await store.testSessions.get(session.account_id, session.id);
  if (row) await bus.publish({ type: 'testSessionUpdated', accountId: row.account_id, testSessionId: row.id, testSession: toTestSessionView(row, deps.publicUrl) });
}
