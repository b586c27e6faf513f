import type { MutationResolvers, Resolvers } from '../__generated__/resolvers-types.js';
import { checkConnection } from '../check-connection.js';
import type { GraphqlContext } from '../context.js';
import { getOrNull } from '../get-or-null.js';
import { isUuid, toGlobalId } from '../global-id.js';
import type { NodeType } from '../node-type.js';
import type { RestPrivateLocation, RestPrivateLocationKey } from '../rest-config-types.js';
import { requireRestId, uuidRestId } from '../global-id.js';
import { withUserErrors } from '../user-errors.js';

const fetchLocation = (ctx: GraphqlContext, restId: string) => getOrNull<RestPrivateLocation>(ctx.rest, `/v1/private-locations/${restId}`);

/** Node types of this module. */
export const privateLocationNodeTypes: NodeType[] = [{
  idType: 'PrivateLocation',
  fetch: (ctx, restId) => (isUuid(restId) ? fetchLocation(ctx, restId) : Promise.resolve(null)),
  typeName: () => 'PrivateLocation',
}];

const locationIdOf = (id: string) => requireRestId(uuidRestId(id, 'PrivateLocation'), 'Private location', id);

/** A key without its raw form: only the payload of the mutation that created it may carry that. */
function maskedOnly({ rawKey: _raw, ...key }: RestPrivateLocationKey): RestPrivateLocationKey {
  return key;
}

/** The location as listed from now on: every key masked. */
function withMaskedKeys(location: RestPrivateLocation): RestPrivateLocation {
  return { ...location, keys: (location.keys ?? []).map(maskedOnly) };
}

const mutation: MutationResolvers = {
  createPrivateLocation: async (_root, { input }, ctx) => {
    const { value, userErrors } = await withUserErrors(async () => (await ctx.rest.send<RestPrivateLocation>('POST', '/v1/private-locations', input)).body);
    // The first key is created with the location; its raw form goes to `key` only.
    const created = value?.keys?.find((k) => typeof k.rawKey === 'string') ?? null;
    return { privateLocation: value && withMaskedKeys(value), key: created, userErrors };
  },
  updatePrivateLocation: async (_root, { id, input }, ctx) => {
    const restId = locationIdOf(id);
    const { value, userErrors } = await withUserErrors(async () => (await ctx.rest.send<RestPrivateLocation>('PUT', `/v1/private-locations/${restId}`, input)).body);
    return { privateLocation: value && withMaskedKeys(value), userErrors };
  },
  deletePrivateLocation: async (_root, { id }, ctx) => {
    const restId = locationIdOf(id);
    await ctx.rest.send('DELETE', `/v1/private-locations/${restId}`);
    return { deletedId: toGlobalId('PrivateLocation', restId), userErrors: [] };
  },
  createPrivateLocationKey: async (_root, { privateLocationId }, ctx) => {
    const restId = locationIdOf(privateLocationId);
    const key = (await ctx.rest.send<RestPrivateLocationKey>('POST', `/v1/private-locations/${restId}/keys`)).body;
    return { key, privateLocationId: restId, userErrors: [] };
  },
  deletePrivateLocationKey: async (_root, { privateLocationId, keyId }, ctx) => {
    const restId = locationIdOf(privateLocationId);
    const { userErrors } = await withUserErrors(() => ctx.rest.send('DELETE', `/v1/private-locations/${restId}/keys/${encodeURIComponent(keyId)}`));
    return userErrors.length
      ? { deletedKeyId: null, privateLocationId: null, userErrors }
      : { deletedKeyId: keyId, privateLocationId: restId, userErrors: [] };
  },
};

/** The locations a check or group names by slug, as objects; a slug the account has no location for is left out. */
async function locationsOfSlugs(slugs: string[] | null | undefined, ctx: GraphqlContext): Promise<RestPrivateLocation[]> {
  const found = await ctx.loaders.privateLocationBySlug.loadMany(slugs ?? []);
  // A failed list call (budget spent, backend down) is the field's error, not an empty list.
  const failure = found.find((l): l is Error => l instanceof Error);
  if (failure) throw failure;
  return found.filter((l): l is RestPrivateLocation => l !== null);
}

const privateLocationNodes = (c: { privateLocations?: string[] | null }, _args: unknown, ctx: GraphqlContext) => locationsOfSlugs(c.privateLocations, ctx);

const CHECK_TYPES = ['ApiCheck', 'UrlCheck', 'TcpCheck', 'DnsCheck', 'IcmpCheck', 'HeartbeatCheck', 'BrowserCheck', 'MultiStepCheck', 'PlaywrightCheck', 'AgenticCheck',
  'SslCheck', 'TracerouteCheck', 'GrpcCheck'];

const locationOfPayload = (p: { privateLocationId: string | null }, _args: unknown, ctx: GraphqlContext) =>
  (p.privateLocationId ? fetchLocation(ctx, p.privateLocationId).then((l) => l && withMaskedKeys(l)) : null);

/**
 * Private locations and their keys (a raw key is readable only in the payload that created it), the
 * checks naming a location, and the locations checks and groups name by slug.
 */
export const privateLocationResolvers: Resolvers = {
  PrivateLocation: {
    id: (l) => toGlobalId('PrivateLocation', l.id),
    privateLocationId: (l) => l.id,
    keys: (l) => (l.keys ?? []).map(maskedOnly),
    createdAt: (l) => l.created_at,
    updatedAt: (l) => l.updated_at,
    checks: (l, { first, after }, ctx) => checkConnection(ctx, first, after, { privateLocation: l.slugName }),
  },
  CheckGroup: { privateLocationNodes },
  ...Object.fromEntries(CHECK_TYPES.map((type) => [type, { privateLocationNodes }])),
  PrivateLocationKey: {
    keyId: (k) => k.id,
    createdAt: (k) => k.created_at,
    updatedAt: (k) => k.updated_at,
  },
  CreatedPrivateLocationKey: {
    keyId: (k) => k.id,
    rawKey: (k) => k.rawKey as string,
    createdAt: (k) => k.created_at,
  },
  CreatePrivateLocationKeyPayload: { privateLocation: locationOfPayload },
  DeletePrivateLocationKeyPayload: { privateLocation: locationOfPayload },
  Query: {
    privateLocations: async (_root, _args, ctx) => (await ctx.rest.get<RestPrivateLocation[]>('/v1/private-locations')).body.map(withMaskedKeys),
    privateLocation: async (_root, { id }, ctx) => {
      const restId = uuidRestId(id, 'PrivateLocation');
      const location = restId === null ? null : await fetchLocation(ctx, restId);
      return location && withMaskedKeys(location);
    },
  },
  Mutation: mutation,
};
