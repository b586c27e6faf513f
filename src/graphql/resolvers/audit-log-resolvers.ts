import type { Resolvers } from '../__generated__/resolvers-types.js';
import type { components } from '../../contract/__generated__/openapi.js';
import { cursorConnection } from '../connection.js';

type RestAuditLogPage = components['schemas']['AuditLogPage'];

/** The account's audit log over /v1/accounts/me/audit-log, its filters passed through as the query's. */
export const auditLogResolvers: Resolvers = {
  Query: {
    auditLog: (_root, { first, after, filter }, ctx) =>
      cursorConnection(first, after, async (cursor, limit) => {
        const query = {
          limit, nextId: cursor ?? undefined,
          resourceType: filter?.resourceType ?? undefined, resourceId: filter?.resourceId ?? undefined,
          actorId: filter?.actorId ?? undefined, action: filter?.action ?? undefined,
          from: filter?.from ?? undefined, to: filter?.to ?? undefined,
        };
        const page = (await ctx.rest.get<RestAuditLogPage>('/v1/accounts/me/audit-log', query)).body;
        return { items: page.entries, next: page.nextId };
      }),
  },
};
