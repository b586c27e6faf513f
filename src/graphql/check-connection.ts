import type { CheckFilter } from './__generated__/resolvers-types.js';
import { offsetConnection, totalOfContentRange, type Connection } from './connection.js';
import type { GraphqlContext } from './context.js';
import { filterGroupRestId } from './rest-references.js';
import type { RestCheck } from './rest-types.js';

/**
 * REST query parameters of `GET /v1/checks` for a CheckFilter; `group` may be the group's global id
 * or REST id, the deprecated `groupId` is its REST id (filterGroupRestId: BAD_USER_INPUT for an id
 * that can be neither, or for both naming different groups).
 */
export function checkListQuery(filter: CheckFilter | null | undefined) {
  return {
    tag: filter?.tags ?? undefined,
    checkType: filter?.checkType ?? undefined,
    groupId: filterGroupRestId(filter),
    activated: filter?.activated ?? undefined,
    status: filter?.state?.toLowerCase(),
    search: filter?.search ?? undefined,
    privateLocation: filter?.privateLocation ?? undefined,
  };
}

/**
 * Checks matching `filter` as a Relay connection over `GET /v1/checks` offset pages; with `fields`
 * (a REST `fields=` value, see rest-check-fields.ts) the checks hold only those fields.
 */
export function checkConnection(
  ctx: GraphqlContext,
  first: number | null | undefined,
  after: string | null | undefined,
  filter: CheckFilter | null | undefined,
  fields?: string,
): Promise<Connection<RestCheck>> {
  return offsetConnection(first, after, async (page, limit) => {
    const res = await ctx.rest.get<RestCheck[]>('/v1/checks', { page, limit, ...checkListQuery(filter), fields });
    // Later loads of these checks asking for no more than these fields (`check(id)`, a group's checks)
    // need no call of their own; `node(id)` asks for the whole check and makes one.
    for (const c of res.body) ctx.loaders.checkById.prime(c.id, c, fields);
    return { items: res.body, total: totalOfContentRange(res.headers['content-range']) };
  });
}
