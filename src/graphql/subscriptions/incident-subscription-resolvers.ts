import type { EventOf } from '../../events/lookout-event.js';
import type { SubscriptionResolvers } from '../__generated__/resolvers-types.js';
import { requireRestIds } from '../global-id.js';
import { incidentRestId } from '../status-page-incident-ids.js';
import { eventsOf, type SubscriptionContext } from './subscription-resolvers.js';

/**
 * `incidentUpdated`: the socket's account's incident events, one incident's only when `incidentId`
 * (a global id or a REST UUID, read once when the subscription starts) is given. The payload is the
 * event, whose incident the Incident type resolves without a REST call.
 */
export const incidentSubscriptionResolvers: SubscriptionResolvers<SubscriptionContext> = {
  incidentUpdated: {
    subscribe: (_root, args, ctx) => {
      const wanted = args.incidentId == null ? null : requireRestIds([args.incidentId], incidentRestId, 'incidentId')[0]!;
      return eventsOf(ctx, 'incidentUpdated', (e) => wanted === null || e.incidentId.toLowerCase() === wanted);
    },
    resolve: (e: EventOf<'incidentUpdated'>) => e,
  },
};
