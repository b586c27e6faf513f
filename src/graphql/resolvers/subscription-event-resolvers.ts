import type { CheckResultSummary, Resolvers } from '../__generated__/resolvers-types.js';
import type { GraphqlContext } from '../context.js';
import { codedError } from '../errors.js';
import type { RestAlertNotification } from '../rest-config-types.js';
import type { RestCheckResult, RestCheckStatus, RestTestSession } from '../rest-result-types.js';

/** The REST result view as the subscription's typed summary. */
export function toCheckResultSummary(r: Record<string, any>): CheckResultSummary {
  return {
    id: r.id,
    checkId: r.checkId,
    name: r.name ?? '',
    checkType: r.checkType ?? '',
    resultType: r.resultType,
    hasFailures: Boolean(r.hasFailures),
    hasErrors: Boolean(r.hasErrors),
    isDegraded: Boolean(r.isDegraded),
    isCancelled: Boolean(r.isCancelled),
    overMaxResponseTime: Boolean(r.overMaxResponseTime),
    runLocation: r.runLocation,
    startedAt: r.startedAt,
    stoppedAt: r.stoppedAt,
    createdAt: r.created_at ?? r.stoppedAt,
    responseTime: r.responseTime ?? 0,
    attempts: r.attempts ?? 1,
    sequenceId: r.sequenceId ?? null,
    checkRunId: r.checkRunId == null ? null : String(r.checkRunId),
    errorGroupIds: r.errorGroupIds ?? [],
    errors: (r.errors ?? []).map((e: { code?: string; message?: string }) => ({ code: e.code ?? 'ERROR', message: e.message ?? '' })),
  };
}

/**
 * The loaders of the operation an event is executed in. Link fields (`check`…) need the per-event
 * context the subscription server gives each event (see createEventContexts); a layer configured
 * without REST access cannot follow them.
 */
function loadersOf(ctx: object): GraphqlContext['loaders'] {
  const loaders = (ctx as Partial<GraphqlContext>).loaders;
  if (!loaders) throw codedError('BACKEND_UNAVAILABLE', 'This subscription layer has no REST access: event links cannot be followed');
  return loaders;
}

const checkOf = (checkId: string | null, ctx: object) => (checkId ? loadersOf(ctx).checkById.load(checkId) : null);

/**
 * Fields of the subscription event types, whose parent is the bus event itself: the payload fields as
 * they always were, typed views of what the event carries whole (no REST call), and `check`, a link
 * through the checkById loader of the event's context: shared by every execution of one event for one
 * account, so it costs one REST call per event however many subscriptions select it.
 */
export const subscriptionEventResolvers: Resolvers = {
  CheckResultEvent: {
    result: (e) => toCheckResultSummary(e.result),
    check: (e, _args, ctx) => checkOf(e.checkId, ctx),
    // The event carries the REST result view whole: primed, later loads of it in this event's
    // context (a test session's runs) need no call either.
    checkResult: (e, _args, ctx) => {
      loadersOf(ctx).results.resultByKey.prime(`${e.checkId}:${e.result.id}`, e.result as RestCheckResult);
      return e.result as RestCheckResult;
    },
  },
  CheckStatusEvent: {
    check: (e, _args, ctx) => checkOf(e.checkId, ctx),
    checkStatus: (e) => e.status as RestCheckStatus,
  },
  AlertNotificationEvent: {
    notificationId: (e) => (e.notification.id == null ? null : String(e.notification.id)),
    status: (e) => e.notification.status ?? null,
    check: (e, _args, ctx) => checkOf(e.checkId, ctx),
    alertNotification: (e) => e.notification as RestAlertNotification,
  },
  TestSessionEvent: {
    status: (e) => e.testSession.status ?? null,
    session: (e) => e.testSession as RestTestSession,
  },
};
