import type { MutationResolvers, Resolvers } from '../__generated__/resolvers-types.js';
import type { GraphqlContext } from '../context.js';
import { checkRestId, requireRestId, toGlobalId } from '../global-id.js';
import { withRestReferences } from '../rest-references.js';
import type { RestCheck } from '../rest-types.js';
import { withUserErrors, type UserError } from '../user-errors.js';

/** The REST id of a check named in a mutation; an id that cannot be a check is an unknown one. */
const restIdOf = (id: string) => requireRestId(checkRestId(id), 'Check', id);

function remember(ctx: GraphqlContext, check: RestCheck | null): RestCheck | null {
  if (check) ctx.loaders.checkById.clear(check.id).prime(check.id, check);
  return check;
}

/** Types with a typed REST route (`POST /v1/checks/{segment}`); the others go through the generic route with `checkType`. */
const TYPES = [
  ['Api', 'API', 'api'], ['Url', 'URL', 'url'], ['Tcp', 'TCP', 'tcp'], ['Dns', 'DNS', 'dns'], ['Icmp', 'ICMP', 'icmp'],
  ['Heartbeat', 'HEARTBEAT', 'heartbeat'], ['Browser', 'BROWSER', 'browser'], ['MultiStep', 'MULTI_STEP', 'multistep'],
  ['Playwright', 'PLAYWRIGHT', null], ['Agentic', 'AGENTIC', null],
  ['Ssl', 'SSL', 'ssl'], ['Traceroute', 'TRACEROUTE', 'traceroute'],
  ['Grpc', 'GRPC', 'grpc'],
] as const;

type Input = Record<string, unknown>;
type CheckPayloadResolver = (root: unknown, args: { id?: string; input?: Input }, ctx: GraphqlContext) => Promise<{ check: RestCheck | null; userErrors: UserError[] }>;

function createResolver(checkType: string, segment: string | null): CheckPayloadResolver {
  return async (_root, { input }, ctx) => {
    const { body, userErrors: refused } = withRestReferences(input!);
    if (refused.length > 0) return { check: null, userErrors: refused };
    const { value, userErrors } = await withUserErrors(async () => (segment
      ? await ctx.rest.send<RestCheck>('POST', `/v1/checks/${segment}`, body)
      : await ctx.rest.send<RestCheck>('POST', '/v1/checks', { ...body, checkType })).body);
    return { check: remember(ctx, value), userErrors };
  };
}

function updateResolver(segment: string | null): CheckPayloadResolver {
  return async (_root, { id, input }, ctx) => {
    const restId = restIdOf(id!);
    const path = segment ? `/v1/checks/${segment}/${restId}` : `/v1/checks/${restId}`;
    const { body, userErrors: refused } = withRestReferences(input!);
    if (refused.length > 0) return { check: null, userErrors: refused };
    const { value, userErrors } = await withUserErrors(async () => (await ctx.rest.send<RestCheck>('PUT', path, body)).body);
    return { check: remember(ctx, value), userErrors };
  };
}

/** activate/deactivate/mute/unmute: a partial update of one flag through the generic update route. */
function flagResolver(patch: { activated: boolean } | { muted: boolean }): CheckPayloadResolver {
  return async (_root, { id }, ctx) => {
    const restId = restIdOf(id!);
    const { value, userErrors } = await withUserErrors(async () => (await ctx.rest.send<RestCheck>('PUT', `/v1/checks/${restId}`, patch)).body);
    return { check: remember(ctx, value), userErrors };
  };
}

const typed: Record<string, CheckPayloadResolver> = {};
for (const [name, checkType, segment] of TYPES) {
  typed[`create${name}Check`] = createResolver(checkType, segment);
  typed[`update${name}Check`] = updateResolver(segment);
}

const mutation: MutationResolvers = {
  ...(typed as unknown as MutationResolvers),
  deleteCheck: async (_root, { id }, ctx) => {
    const restId = restIdOf(id);
    await ctx.rest.send('DELETE', `/v1/checks/${restId}`);
    ctx.loaders.checkById.clear(restId);
    return { deletedId: toGlobalId('Check', restId), userErrors: [] };
  },
  activateCheck: flagResolver({ activated: true }) as never,
  deactivateCheck: flagResolver({ activated: false }) as never,
  muteCheck: flagResolver({ muted: true }) as never,
  unmuteCheck: flagResolver({ muted: false }) as never,
};

/** Check mutations: create/update per type, delete, activate/deactivate, mute/unmute. */
export const checkMutationResolvers: Resolvers = { Mutation: mutation };
