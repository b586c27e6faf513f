import type { Resolvers } from '../__generated__/resolvers-types.js';
import { offsetConnection, totalOfContentRange } from '../connection.js';
import { toGlobalId } from '../global-id.js';
import type { RestCheck } from '../rest-types.js';

/** Resolvers of CheckGroup: REST fields renamed, and its checks with group settings applied. */
export const checkGroupResolvers: Resolvers = {
  CheckGroup: {
    id: (g) => toGlobalId('CheckGroup', g.id),
    groupId: (g) => g.id,
    tags: (g) => g.tags ?? [],
    locations: (g) => g.locations ?? [],
    privateLocations: (g) => g.privateLocations ?? [],
    environmentVariables: (g) => g.environmentVariables ?? [],
    alertChannelSubscriptions: (g) => g.alertChannelSubscriptions ?? [],
    retryStrategy: (g) => (g.retryStrategy === 'FALLBACK' ? null : g.retryStrategy ?? null),
    retryStrategyFallback: (g) => g.retryStrategy === 'FALLBACK',
    doubleCheck: (g) => g.doubleCheck ?? false,
    createdAt: (g) => g.created_at,
    updatedAt: (g) => g.updated_at,
    // The group's own list route, not the check loader: these checks carry the group's settings.
    checks: (g, { first, after }, ctx) =>
      offsetConnection(first, after, async (page, limit) => {
        const res = await ctx.rest.get<RestCheck[]>(`/v1/check-groups/${g.id}/checks`, { page, limit });
        return { items: res.body, total: totalOfContentRange(res.headers['content-range']) };
      }),
  },
  ApiCheckDefaults: {
    url: (d) => d.url ?? '',
    headers: (d) => d.headers ?? [],
    queryParameters: (d) => d.queryParameters ?? [],
    assertions: (d) => d.assertions ?? [],
  },
};
