import type { Api, ApiContext } from './api-context.js';
import { checkGroupsRoutes } from './check-groups-routes.js';
import { checksRoutes } from './checks-routes.js';

/** Every REST route module, registered in this order. */
export const ROUTE_MODULES: Array<(app: Api, ctx: ApiContext) => void> = [
  checksRoutes,
  checkGroupsRoutes,
];
