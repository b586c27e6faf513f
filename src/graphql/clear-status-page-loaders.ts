import type { GraphqlContext } from './context.js';

/**
 * Forgets everything the operation read about services, incidents, status pages and maintenance
 * after a write to any of them: they embed each other (a page's cards show services, an incident
 * its services, a window its services and pages), so a write to one can stale the others.
 */
export function clearStatusPageLoaders(ctx: GraphqlContext): void {
  ctx.loaders.statusPageIncidents.clearAll();
  ctx.loaders.statusPages.clearAll();
  ctx.loaders.maintenances.clearAll();
}
