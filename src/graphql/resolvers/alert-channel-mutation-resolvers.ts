import type { MutationResolvers, Resolvers } from '../__generated__/resolvers-types.js';
import type { GraphqlContext } from '../context.js';
import { checkRestId, groupRestId, toGlobalId } from '../global-id.js';
import type { RestAlertChannel, RestChannelSubscription } from '../rest-config-types.js';
import { integerRestId, requireRestId } from '../global-id.js';
import { TOO_MANY_ERRORS, withUserErrors, type UserError } from '../user-errors.js';

/** Mutation name part and REST `type` of each channel type. */
const CHANNEL_TYPES = [
  ['Email', 'EMAIL'], ['Slack', 'SLACK'], ['SlackApp', 'SLACK_APP'], ['Webhook', 'WEBHOOK'],
  ['Sms', 'SMS'], ['Pagerduty', 'PAGERDUTY'], ['Opsgenie', 'OPSGENIE'], ['Call', 'CALL'],
] as const;

function channelIdOf(id: string): number {
  return requireRestId(integerRestId(id, 'AlertChannel'), 'Alert channel', id);
}

function remember(ctx: GraphqlContext, channel: RestAlertChannel | null): RestAlertChannel | null {
  if (channel) ctx.loaders.alertChannelById.clear(channel.id).prime(channel.id, channel);
  return channel;
}

type Input = Record<string, unknown>;
type ChannelResolver = (root: unknown, args: { id?: string; input: Input }, ctx: GraphqlContext) => Promise<unknown>;

/** Sends the type with every write: an update of a channel of another type is then a REST 400 on `type`. */
function createResolver(type: string): ChannelResolver {
  return async (_root, { input }, ctx) => {
    const { value, userErrors } = await withUserErrors(async () => (await ctx.rest.send<RestAlertChannel>('POST', '/v1/alert-channels', { ...input, type })).body);
    return { alertChannel: remember(ctx, value), userErrors };
  };
}

function updateResolver(type: string): ChannelResolver {
  return async (_root, { id, input }, ctx) => {
    const restId = channelIdOf(id!);
    const { value, userErrors } = await withUserErrors(async () => (await ctx.rest.send<RestAlertChannel>('PUT', `/v1/alert-channels/${restId}`, { ...input, type })).body);
    return { alertChannel: remember(ctx, value), userErrors };
  };
}

const typed: Record<string, ChannelResolver> = {};
for (const [name, type] of CHANNEL_TYPES) {
  typed[`create${name}AlertChannel`] = createResolver(type);
  typed[`update${name}AlertChannel`] = updateResolver(type);
}

const mutation: MutationResolvers = {
  ...(typed as unknown as MutationResolvers),
  deleteAlertChannel: async (_root, { id }, ctx) => {
    const restId = channelIdOf(id);
    await ctx.rest.send('DELETE', `/v1/alert-channels/${restId}`);
    ctx.loaders.alertChannelById.clear(restId);
    return { deletedId: toGlobalId('AlertChannel', restId), userErrors: [] };
  },
  updateAlertChannelSubscriptions: async (_root, { id, subscriptions }, ctx) => {
    const restId = channelIdOf(id);
    // Ids that cannot be a check or group are sent as given: the REST API names them in its 400 keys.
    const body = subscriptions.map((s) => ({
      ...(s.checkId != null ? { checkId: checkRestId(s.checkId) ?? s.checkId } : {}),
      ...(s.groupId != null ? { groupId: groupRestId(s.groupId) ?? s.groupId } : {}),
      activated: s.activated,
    }));
    const { value, userErrors } = await withUserErrors(async () =>
      (await ctx.rest.send<RestChannelSubscription[]>('PUT', `/v1/alert-channels/${restId}/subscriptions`, body)).body);
    if (!value) {
      // REST names entries of the list it was sent (`0.checkId`); the input names them under `subscriptions`.
      const underInput = (e: UserError) => (e.code === TOO_MANY_ERRORS ? e : { ...e, field: e.field ? `subscriptions.${e.field}` : 'subscriptions' });
      return { alertChannel: null, subscriptions: null, userErrors: userErrors.map(underInput) };
    }
    // Subscriptions changed the channel and the checks and groups named: later fields read them afresh.
    for (const s of value) {
      if (s.checkId) ctx.loaders.checkById.clear(s.checkId);
      if (s.groupId) ctx.loaders.groupById.clear(s.groupId);
    }
    const alertChannel = await ctx.loaders.alertChannelById.clear(restId).load(restId);
    return { alertChannel, subscriptions: value, userErrors: [] };
  },
};

/** Alert channel mutations: create and update per type, delete, and check and group subscriptions. */
export const alertChannelMutationResolvers: Resolvers = { Mutation: mutation };
