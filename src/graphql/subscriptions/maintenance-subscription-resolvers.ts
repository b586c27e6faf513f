import type { EventOf } from '../../events/lookout-event.js';
import type { SubscriptionResolvers } from '../__generated__/resolvers-types.js';
import { requireRestIds } from '../global-id.js';
import { maintenanceWindowRestId } from '../maintenance-ids.js';
import { eventsOf, type SubscriptionContext } from './subscription-resolvers.js';

/**
 * `maintenanceUpdated`: the socket's account's maintenance events (a window, one of its maintenances or
 * a maintenance's update written, by a caller or by the maintenance clock), one window's only when
 * `maintenanceWindowId` (a global id or a REST id, read once when the subscription starts) is given.
 * The payload is the event, whose maintenance (or window) the types resolve without a REST call.
 */
export const maintenanceSubscriptionResolvers: SubscriptionResolvers<SubscriptionContext> = {
  maintenanceUpdated: {
    subscribe: (_root, args, ctx) => {
      const wanted = args.maintenanceWindowId == null ? null : requireRestIds([args.maintenanceWindowId], maintenanceWindowRestId, 'maintenanceWindowId')[0]!;
      return eventsOf(ctx, 'maintenanceUpdated', (e) => wanted === null || e.maintenanceWindowId === wanted);
    },
    resolve: (e: EventOf<'maintenanceUpdated'>) => e,
  },
};
