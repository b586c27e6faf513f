import type { EventOf } from '../../events/lookout-event.js';
import type { SubscriptionResolvers } from '../__generated__/resolvers-types.js';
import { requireRestIds } from '../global-id.js';
import { statusPageRestId } from '../status-page-ids.js';
import type { StatusPageChangeEventParent } from '../status-page-types.js';
import { eventsOf, type SubscriptionContext } from './subscription-resolvers.js';

/** The REST id of the page a `statusPageChanged` subscription follows; null when it follows the whole account. */
const followed = (statusPageId: string | null | undefined): string | null =>
  statusPageId == null ? null : requireRestIds([statusPageId], statusPageRestId, 'statusPageId')[0]!;

/**
 * Whether a public content change can touch what the page `pageId` shows (every page when null). A
 * write of a page or of its subscribers names the page; services, incidents and maintenance are
 * shared by pages (a service may be on any card, an incident or a maintenance may affect any service),
 * so every such change of the account is passed on rather than told apart by reading the page.
 * Dashboards are never on a status page.
 */
export function touchesStatusPage(e: EventOf<'publicContentChanged'>, pageId: string | null): boolean {
  if (e.subject === 'dashboard') return false;
  if (pageId === null) return true;
  return e.subject === 'statusPage' || e.subject === 'subscription' ? e.subjectId.toLowerCase() === pageId : true;
}

/**
 * `statusPageChanged`: the socket's account's public content changes that can touch a status page
 * (touchesStatusPage), those of one page only when `statusPageId` (a global id or a REST UUID, read
 * once when the subscription starts) is given. The payload is the event with the page it follows, which
 * `statusPage` reads (one REST call per event, shared by the account's subscriptions).
 */
export const statusPageSubscriptionResolvers: SubscriptionResolvers<SubscriptionContext> = {
  statusPageChanged: {
    subscribe: (_root, args, ctx) => {
      const pageId = followed(args.statusPageId);
      return eventsOf(ctx, 'publicContentChanged', (e) => touchesStatusPage(e, pageId));
    },
    resolve: (e: EventOf<'publicContentChanged'>, args: { statusPageId?: string | null }): StatusPageChangeEventParent =>
      ({ ...e, followedStatusPageId: followed(args.statusPageId) }),
  },
};
