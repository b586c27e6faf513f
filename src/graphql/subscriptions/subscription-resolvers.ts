import type { EventOf, LookoutEventType } from '../../events/lookout-event.js';
import type { CheckResultFilter, SubscriptionResolvers } from '../__generated__/resolvers-types.js';
import { checkRestId, requireRestIds, uuidRestId } from '../global-id.js';
import { filterGroupRestId } from '../rest-references.js';
import type { AccountEvents } from './account-event-source.js';
import { createPushIterator } from './push-iterator.js';

/** What subscription resolvers run with: the socket's account and its events. */
export interface SubscriptionContext {
  accountId: string;
  events: AccountEvents;
}

/** The account's events of one type that `accept` lets through, as an async iterator. */
export function eventsOf<T extends LookoutEventType>(ctx: SubscriptionContext, type: T, accept: (e: EventOf<T>) => boolean): AsyncIterableIterator<EventOf<T>> {
  let unsubscribe = () => {};
  const it = createPushIterator<EventOf<T>>(() => unsubscribe());
  // Subscribed before the iterator is handed out: no event published after `subscribe` resolves is missed.
  unsubscribe = ctx.events.subscribe(type, (event) => {
    if (accept(event)) it.push(event);
  });
  return it;
}

/** A CheckResultFilter with its ids read as REST ids (lower-case check UUIDs, the group's integer id). */
export interface RestCheckResultFilter {
  checkIds?: readonly string[] | null;
  groupId?: number | null;
  tags?: readonly string[] | null;
  hasFailures?: boolean | null;
  locations?: readonly string[] | null;
  resultType?: CheckResultFilter['resultType'];
}

/** The REST ids of a list of check ids (global ids or REST UUIDs alike), lower-case as events carry them. */
const checkIdsOf = (ids: readonly string[], argumentName: string) => requireRestIds(ids, checkRestId, argumentName).map((id) => id.toLowerCase());

/**
 * A CheckResultFilter with its global ids read as REST ids (`group` or the deprecated `groupId` as the
 * REST `groupId`); an id that can be neither is BAD_USER_INPUT.
 */
export function toRestCheckResultFilter(filter: CheckResultFilter | null | undefined): RestCheckResultFilter | null {
  if (!filter) return null;
  const { group: _group, ...rest } = filter;
  return {
    ...rest,
    checkIds: filter.checkIds ? checkIdsOf(filter.checkIds, 'checkIds') : null,
    groupId: filterGroupRestId(filter) ?? null,
  };
}

const anyOf = <T>(wanted: readonly T[] | null | undefined, value: T): boolean => !wanted || wanted.includes(value);

/** Whether a result event passes a filter (every given condition must hold). */
export function matchesCheckResultFilter(filter: RestCheckResultFilter | null | undefined, event: EventOf<'checkResultCreated'>): boolean {
  if (!filter) return true;
  const r = event.result;
  return anyOf(filter.checkIds, event.checkId.toLowerCase())
    && (filter.groupId == null || event.groupId === filter.groupId)
    && (!filter.tags || filter.tags.some((t) => event.tags.includes(t)))
    && (filter.hasFailures == null || r.hasFailures === filter.hasFailures)
    && anyOf(filter.locations, r.runLocation)
    && (filter.resultType == null || r.resultType === filter.resultType);
}

/** Ids of a check list argument as REST ids, resolved once when the subscription starts. */
const checkIdSet = (ids: readonly string[] | null | undefined) => (ids ? new Set(checkIdsOf(ids, 'checkIds')) : null);

/**
 * The `Subscription` resolvers: each subscribes to one event type of the socket's account and narrows
 * it by its arguments (global ids and REST ids alike, read once when the subscription starts). The
 * payload is the event itself, which the event types resolve their fields from (subscription-event-resolvers.ts).
 */
export const subscriptionResolvers: SubscriptionResolvers<SubscriptionContext> = {
  checkResultCreated: {
    subscribe: (_root, args, ctx) => {
      const filter = toRestCheckResultFilter(args.filter);
      return eventsOf(ctx, 'checkResultCreated', (e) => matchesCheckResultFilter(filter, e));
    },
    resolve: (e: EventOf<'checkResultCreated'>) => e,
  },
  checkStatusChanged: {
    subscribe: (_root, args, ctx) => {
      const wanted = checkIdSet(args.checkIds);
      return eventsOf(ctx, 'checkStatusChanged', (e) => !wanted || wanted.has(e.checkId.toLowerCase()));
    },
    resolve: (e: EventOf<'checkStatusChanged'>) => e,
  },
  alertNotified: {
    subscribe: (_root, args, ctx) => {
      const wanted = checkIdSet(args.checkIds);
      return eventsOf(ctx, 'alertNotified', (e) => !wanted || (e.checkId !== null && wanted.has(e.checkId.toLowerCase())));
    },
    resolve: (e: EventOf<'alertNotified'>) => e,
  },
  testSessionUpdated: {
    subscribe: (_root, args, ctx) => {
      const wanted = args.testSessionId == null ? null : requireRestIds([args.testSessionId], (id) => uuidRestId(id, 'TestSession'), 'testSessionId')[0]!.toLowerCase();
      return eventsOf(ctx, 'testSessionUpdated', (e) => wanted === null || e.testSessionId.toLowerCase() === wanted);
    },
    resolve: (e: EventOf<'testSessionUpdated'>) => e,
  },
};
