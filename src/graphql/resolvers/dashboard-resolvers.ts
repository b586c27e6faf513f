import type { Resolvers } from '../__generated__/resolvers-types.js';
import { offsetConnection, totalOfContentRange } from '../connection.js';
import { dashboardRestId } from '../dashboard-ids.js';
import type { RestDashboard } from '../dashboard-types.js';
import { isUuid, toGlobalId } from '../global-id.js';
import type { NodeType } from '../node-type.js';

/** Node types of this module: dashboards. */
export const dashboardNodeTypes: NodeType[] = [
  {
    idType: 'Dashboard',
    fetch: (ctx, restId) => (isUuid(restId) ? ctx.loaders.dashboards.dashboardById.load(restId) : Promise.resolve(null)),
    typeName: () => 'Dashboard',
  },
];

/** Dashboards: the type, one by id and the offset list. */
export const dashboardResolvers: Resolvers = {
  Dashboard: {
    id: (d) => toGlobalId('Dashboard', d.dashboardId),
    createdAt: (d) => d.created_at,
    updatedAt: (d) => d.updated_at,
  },
  Query: {
    dashboard: (_root, { id }, ctx) => {
      const restId = dashboardRestId(id);
      return restId === null ? null : ctx.loaders.dashboards.dashboardById.load(restId);
    },
    dashboards: (_root, { first, after }, ctx) =>
      offsetConnection(first, after, async (page, limit) => {
        const res = await ctx.rest.get<RestDashboard[]>('/v1/dashboards', { page, limit });
        for (const d of res.body) ctx.loaders.dashboards.dashboardById.prime(d.dashboardId.toLowerCase(), d);
        return { items: res.body, total: totalOfContentRange(res.headers['content-range']) };
      }),
  },
};
