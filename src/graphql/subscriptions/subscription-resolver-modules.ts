import { incidentSubscriptionResolvers } from './incident-subscription-resolvers.js';
import { maintenanceSubscriptionResolvers } from './maintenance-subscription-resolvers.js';
import { statusPageSubscriptionResolvers } from './status-page-subscription-resolvers.js';
import { subscriptionResolvers } from './subscription-resolvers.js';

/**
 * Every Subscription resolver module, merged into the schema wherever it is built (the service's
 * own GraphQL endpoint and a separately deployed subscription layer), so both serve the same fields.
 */
export const SUBSCRIPTION_RESOLVER_MODULES: Array<{ Subscription: Record<string, unknown> }> = [
  { Subscription: subscriptionResolvers as Record<string, unknown> },
  { Subscription: incidentSubscriptionResolvers as Record<string, unknown> },
  { Subscription: maintenanceSubscriptionResolvers as Record<string, unknown> },
  { Subscription: statusPageSubscriptionResolvers as Record<string, unknown> },
];
