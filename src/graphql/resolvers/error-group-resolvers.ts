import type { Resolvers } from '../__generated__/resolvers-types.js';
import { offsetConnection, totalOfContentRange } from '../connection.js';
import type { GraphqlContext } from '../context.js';
import { codedError } from '../errors.js';
import { checkRestId, isUuid, requireRestId, toGlobalId, uuidRestId } from '../global-id.js';
import type { NodeType } from '../node-type.js';
import type { RestErrorGroup } from '../rest-result-types.js';
import { withUserErrors } from '../user-errors.js';
import { restCheckFields } from '../rest-check-fields.js';

/** Node types of this module: check error groups. */
export const errorGroupNodeTypes: NodeType[] = [
  {
    idType: 'ErrorGroup',
    fetch: (ctx, restId) => (isUuid(restId) ? ctx.loaders.errorGroupById.load(restId) : Promise.resolve(null)),
    typeName: () => 'ErrorGroup',
  },
];

/** The REST id of an error group named in a mutation; an id that cannot be one is an unknown one. */
const restIdOf = (id: string) => requireRestId(uuidRestId(id, 'ErrorGroup'), 'Error group', id);

/** PATCHes an error group's archive flags and returns the payload. */
async function patch(ctx: GraphqlContext, id: string, body: { archiveForEver?: boolean; archivedUntilNextEvent?: boolean }) {
  const restId = restIdOf(id);
  const { value, userErrors } = await withUserErrors(async () => (await ctx.rest.send<RestErrorGroup>('PATCH', `/v1/error-groups/${restId}`, body)).body);
  if (value) ctx.loaders.errorGroupById.clear(value.id).prime(value.id, value);
  return { errorGroup: value, userErrors };
}

/** Resolvers of ErrorGroup, its queries and its archive mutations. */
export const errorGroupResolvers: Resolvers = {
  Query: {
    errorGroup: (_root, { id }, ctx) => {
      const restId = uuidRestId(id, 'ErrorGroup');
      return restId ? ctx.loaders.errorGroupById.load(restId) : null;
    },
    errorGroups: (_root, { first, after, archived, checkIds }, ctx) => {
      if (checkIds && checkIds.length > 100) throw codedError('BAD_USER_INPUT', '"checkIds" holds at most 100 ids', { argumentName: 'checkIds' });
      const ids = checkIds?.map(checkRestId);
      if (ids?.some((id) => id === null)) throw codedError('BAD_USER_INPUT', '"checkIds" holds an id that is not a check id', { argumentName: 'checkIds' });
      return offsetConnection(first, after, async (page, limit) => {
        const res = await ctx.rest.get<RestErrorGroup[]>('/v1/error-groups', {
          page, limit, archived: archived ?? undefined, checkIds: ids?.length ? ids.join(',') : undefined,
        });
        for (const g of res.body) ctx.loaders.errorGroupById.prime(g.id, g);
        return { items: res.body, total: totalOfContentRange(res.headers['content-range']) };
      });
    },
  },
  Mutation: {
    archiveErrorGroup: (_root, { id, forEver }, ctx) =>
      patch(ctx, id, forEver ? { archiveForEver: true } : { archivedUntilNextEvent: true }),
    unarchiveErrorGroup: (_root, { id }, ctx) => patch(ctx, id, { archivedUntilNextEvent: false, archiveForEver: false }),
  },
  ErrorGroup: {
    id: (g) => toGlobalId('ErrorGroup', g.id),
    errorGroupId: (g) => g.id,
    check: (g, _args, ctx, info) => ctx.loaders.checkById.load(g.checkId, restCheckFields(info, false)),
    rawErrorMessage: (g) => g.rawErrorMessage ?? null,
    archived: (g) => g.archivedUntilNextEvent || (g.archiveForEver ?? false),
    archivedForEver: (g) => g.archiveForEver ?? false,
  },
};
