import type { EventOf, LookoutEventType } from '../../events/lookout-event.js';
import type {
  AlertNotificationEvent, CheckResultEvent, CheckResultFilter, CheckResultSummary, CheckStatusEvent, SubscriptionResolvers, TestSessionEvent,
} from '../__generated__/resolvers-types.js';
import type { AccountEvents } from './account-event-source.js';
import { createPushIterator } from './push-iterator.js';

/** What subscription resolvers run with: the socket's account and its events. */
export interface SubscriptionContext {
  accountId: string;
  events: AccountEvents;
}

/** The account's events of one type that `accept` lets through, as an async iterator. */
function eventsOf<T extends LookoutEventType>(ctx: SubscriptionContext, type: T, accept: (e: EventOf<T>) => boolean): AsyncIterableIterator<EventOf<T>> {
  let unsubscribe = () => {};
  const it = createPushIterator<EventOf<T>>(() => unsubscribe());
  // Subscribed before the iterator is handed out: no event published after `subscribe` resolves is missed.
  unsubscribe = ctx.events.subscribe(type, (event) => {
    if (accept(event)) it.push(event);
  });
  return it;
}

const anyOf = <T>(wanted: readonly T[] | null | undefined, value: T): boolean => !wanted || wanted.includes(value);

/** Whether a result event passes a `CheckResultFilter` (every given condition must hold). */
export function matchesCheckResultFilter(filter: CheckResultFilter | null | undefined, event: EventOf<'checkResultCreated'>): boolean {
  if (!filter) return true;
  const r = event.result;
  return anyOf(filter.checkIds, event.checkId)
    && (filter.groupId == null || event.groupId === filter.groupId)
    && (!filter.tags || filter.tags.some((t) => event.tags.includes(t)))
    && (filter.hasFailures == null || r.hasFailures === filter.hasFailures)
    && anyOf(filter.locations, r.runLocation)
    && (filter.resultType == null || r.resultType === filter.resultType);
}

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

/** The `Subscription` resolvers: each subscribes to one event type of the socket's account and narrows it by its arguments. */
export const subscriptionResolvers: SubscriptionResolvers<SubscriptionContext> = {
  checkResultCreated: {
    subscribe: (_root, args, ctx) => eventsOf(ctx, 'checkResultCreated', (e) => matchesCheckResultFilter(args.filter, e)) as any,
    resolve: (e: EventOf<'checkResultCreated'>): CheckResultEvent => ({
      checkId: e.checkId, groupId: e.groupId, tags: e.tags, result: toCheckResultSummary(e.result),
    }),
  },
  checkStatusChanged: {
    subscribe: (_root, args, ctx) => eventsOf(ctx, 'checkStatusChanged', (e) => anyOf(args.checkIds, e.checkId)) as any,
    resolve: (e: EventOf<'checkStatusChanged'>): CheckStatusEvent => ({
      checkId: e.checkId, previous: e.previous, current: e.current, status: e.status,
    }),
  },
  alertNotified: {
    subscribe: (_root, args, ctx) => eventsOf(ctx, 'alertNotified', (e) => !args.checkIds || (e.checkId !== null && args.checkIds.includes(e.checkId))) as any,
    resolve: (e: EventOf<'alertNotified'>): AlertNotificationEvent => ({
      checkId: e.checkId, notificationId: e.notification.id == null ? null : String(e.notification.id),
      status: e.notification.status ?? null, notification: e.notification,
    }),
  },
  testSessionUpdated: {
    subscribe: (_root, args, ctx) => eventsOf(ctx, 'testSessionUpdated', (e) => args.testSessionId == null || e.testSessionId === args.testSessionId) as any,
    resolve: (e: EventOf<'testSessionUpdated'>): TestSessionEvent => ({
      testSessionId: e.testSessionId, status: e.testSession.status ?? null, testSession: e.testSession,
    }),
  },
};
