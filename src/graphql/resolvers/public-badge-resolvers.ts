import type { Resolvers } from '../__generated__/resolvers-types.js';
import type { GraphqlContext } from '../context.js';
import { getOrNull } from '../get-or-null.js';
import { checkRestId, groupRestId, requireRestId } from '../global-id.js';
import { withUserErrors } from '../user-errors.js';

/** A public badge as REST answers it. */
interface RestPublicBadge {
  token: string;
  url: string;
  checkId: string | null;
  groupId: number | null;
  created_at: string;
}

const toPublicBadge = (b: RestPublicBadge) => ({ url: b.url, createdAt: b.created_at });

async function publish(ctx: GraphqlContext, path: string) {
  const { value, userErrors } = await withUserErrors(async () => (await ctx.rest.send<RestPublicBadge>('POST', path)).body);
  return { publicBadge: value ? toPublicBadge(value) : null, userErrors };
}

async function revoke(ctx: GraphqlContext, path: string) {
  const { userErrors } = await withUserErrors(() => ctx.rest.send('DELETE', path));
  return { publicBadge: null, userErrors };
}

const checkPath = (id: string) => `/v1/badges/checks/${requireRestId(checkRestId(id), 'Check', id)}/public`;
const groupPath = (id: string) => `/v1/badges/groups/${requireRestId(groupRestId(id), 'CheckGroup', id)}/public`;

/** Public badge URLs: on a check's badge and on a group, and the mutations that publish and revoke them. */
export const publicBadgeResolvers: Resolvers = {
  CheckBadge: {
    publicBadge: async (badge, _args, ctx) => {
      const found = await getOrNull<RestPublicBadge>(ctx.rest, `/v1/badges/checks/${(badge as unknown as { checkId: string }).checkId}/public`);
      return found && toPublicBadge(found);
    },
  },
  CheckGroup: {
    publicBadge: async (group, _args, ctx) => {
      const found = await getOrNull<RestPublicBadge>(ctx.rest, `/v1/badges/groups/${(group as unknown as { id: number }).id}/public`);
      return found && toPublicBadge(found);
    },
  },
  Mutation: {
    publishCheckBadge: (_root, { checkId }, ctx) => publish(ctx, checkPath(checkId)),
    revokeCheckBadge: (_root, { checkId }, ctx) => revoke(ctx, checkPath(checkId)),
    publishCheckGroupBadge: (_root, { groupId }, ctx) => publish(ctx, groupPath(groupId)),
    revokeCheckGroupBadge: (_root, { groupId }, ctx) => revoke(ctx, groupPath(groupId)),
  },
};
