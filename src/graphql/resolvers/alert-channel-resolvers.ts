import type { Resolvers } from '../__generated__/resolvers-types.js';
import { CHECK_TYPE_NAMES } from '../check-type-name.js';
import { offsetConnection, totalOfContentRange } from '../connection.js';
import type { GraphqlContext } from '../context.js';
import { isIntegerId, toGlobalId } from '../global-id.js';
import type { NodeType } from '../node-type.js';
import type { RestAlertChannel, RestAlertChannelConfig, RestChannelSubscription, RestWebhookKeyValue } from '../rest-config-types.js';
import { integerRestId } from '../global-id.js';
import { alertNotificationConnection } from './alert-notification-resolvers.js';
import { restCheckFields } from '../rest-check-fields.js';

/** GraphQL object type of each REST channel `type`. */
export const ALERT_CHANNEL_TYPE_NAMES: Record<string, string> = {
  EMAIL: 'EmailAlertChannel', SLACK: 'SlackAlertChannel', SLACK_APP: 'SlackAppAlertChannel', WEBHOOK: 'WebhookAlertChannel',
  SMS: 'SmsAlertChannel', PAGERDUTY: 'PagerdutyAlertChannel', OPSGENIE: 'OpsgenieAlertChannel', CALL: 'CallAlertChannel',
};

/** The GraphQL type of a REST channel payload (null for a type this schema does not know). */
export function alertChannelTypeName(channel: RestAlertChannel): string | null {
  return ALERT_CHANNEL_TYPE_NAMES[channel.type] ?? null;
}

/** Node types of this module. */
export const alertChannelNodeTypes: NodeType[] = [{
  idType: 'AlertChannel',
  fetch: (ctx, restId) => (isIntegerId(restId) ? ctx.loaders.alertChannelById.load(Number(restId)) : Promise.resolve(null)),
  typeName: (value) => alertChannelTypeName(value as RestAlertChannel),
}];

const MASK = '********';

/**
 * A provider key as it may be read: the REST API already answers it masked, and a value that is
 * not (a backend that forgot to mask) is masked here, so the graph never carries a secret.
 */
function masked(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null;
  if (value.startsWith(MASK)) return value;
  return value.length >= 8 ? MASK + value.slice(-4) : MASK;
}

/**
 * Webhook headers or query parameters as they may be read. The REST API already answers a locked
 * value as null; one that is not (a backend that forgot) is dropped here, so the graph never
 * carries it.
 */
function webhookEntries(list: unknown) {
  if (!Array.isArray(list)) return [];
  return (list as RestWebhookKeyValue[]).map((e) => ({
    key: e.key,
    value: e.locked === true || typeof e.value !== 'string' ? null : e.value,
    locked: e.locked === true,
  }));
}

/** Channels of subscriptions `{alertChannelId, activated}`, in order, through the batching loader; deleted ones left out. */
export async function channelsOfSubscriptions(
  ctx: GraphqlContext,
  subs: readonly { alertChannelId: number; activated: boolean }[] | null | undefined,
  activated: boolean | null | undefined,
): Promise<RestAlertChannel[]> {
  const ids = (subs ?? []).filter((s) => activated == null || s.activated === activated).map((s) => s.alertChannelId);
  const channels = await Promise.all(ids.map((id) => ctx.loaders.alertChannelById.load(id)));
  return channels.filter((c): c is RestAlertChannel => c !== null);
}

function subscribed(c: RestAlertChannel, activated: boolean | null | undefined): RestChannelSubscription[] {
  return (c.subscriptions ?? []).filter((s) => activated == null || s.activated === activated);
}

type ChannelArgs = { activated?: boolean | null };
type NotificationArgs = Parameters<typeof alertNotificationConnection>[1];

/** Fields every channel type resolves the same way. */
const channelFields = {
  id: (c: RestAlertChannel) => toGlobalId('AlertChannel', c.id),
  alertChannelId: (c: RestAlertChannel) => c.id,
  subscriptions: (c: RestAlertChannel) => c.subscriptions ?? [],
  // Batched: the checks of every channel of the operation share one `ids=` call.
  subscribedChecks: async (c: RestAlertChannel, { activated }: ChannelArgs, ctx: GraphqlContext) => {
    const checks = await Promise.all(subscribed(c, activated).flatMap((s) => (s.checkId ? [ctx.loaders.checkById.load(s.checkId)] : [])));
    return checks.filter((x) => x !== null);
  },
  subscribedGroups: async (c: RestAlertChannel, { activated }: ChannelArgs, ctx: GraphqlContext) => {
    const groups = await Promise.all(subscribed(c, activated).flatMap((s) => (s.groupId ? [ctx.loaders.groupById.load(s.groupId)] : [])));
    return groups.filter((x) => x !== null);
  },
  notifications: (c: RestAlertChannel, args: NotificationArgs, ctx: GraphqlContext) => alertNotificationConnection(ctx, args, { alertChannelId: c.id }),
  config: (c: RestAlertChannel) => c.config ?? {},
  createdAt: (c: RestAlertChannel) => c.created_at,
  updatedAt: (c: RestAlertChannel) => c.updated_at,
};

const channelTypes = Object.fromEntries(Object.values(ALERT_CHANNEL_TYPE_NAMES).map((name) => [name, channelFields]));

/** `alertChannels` of every check type: the channels of the check's subscriptions. */
const checkFields = Object.fromEntries(Object.values(CHECK_TYPE_NAMES).map((name) => [name, {
  alertChannels: (c: { alertChannelSubscriptions?: { alertChannelId: number; activated: boolean }[] | null }, { activated }: ChannelArgs, ctx: GraphqlContext) =>
    channelsOfSubscriptions(ctx, c.alertChannelSubscriptions, activated),
}]));

const str = (key: string) => (cfg: RestAlertChannelConfig) => (typeof cfg[key] === 'string' ? cfg[key] : null);

/** Alert channels: the interface and its types, typed configs, queries and the relations both ways. */
export const alertChannelResolvers: Resolvers = {
  ...(channelTypes as Resolvers),
  ...(checkFields as Resolvers),
  AlertChannel: { __resolveType: (c) => alertChannelTypeName(c) as never },
  WebhookAlertChannelConfig: {
    method: (cfg) => ((cfg.method as string | undefined) ?? 'POST') as never,
    headers: (cfg) => webhookEntries(cfg.headers),
    queryParameters: (cfg) => webhookEntries(cfg.queryParameters),
    url: str('url'),
    template: str('template'),
    webhookType: str('webhookType'),
  },
  PagerdutyAlertChannelConfig: { maskedServiceKey: (cfg) => masked(cfg.serviceKey) },
  OpsgenieAlertChannelConfig: { maskedApiKey: (cfg) => masked(cfg.apiKey) },
  SlackAlertChannelConfig: { url: str('url'), channel: str('channel') },
  SlackAppAlertChannelConfig: { url: str('url'), channel: str('channel') },
  AlertChannelSubscriber: {
    subscriptionId: (s) => s.id,
    check: (s, _args, ctx, info) => (s.checkId ? ctx.loaders.checkById.load(s.checkId, restCheckFields(info, false)) : null),
    group: (s, _args, ctx) => (s.groupId ? ctx.loaders.groupById.load(s.groupId) : null),
  },
  AlertChannelSubscription: {
    alertChannel: (s, _args, ctx) => ctx.loaders.alertChannelById.load(s.alertChannelId),
  },
  CheckGroup: {
    alertChannels: (g, { activated }, ctx) => channelsOfSubscriptions(ctx, g.alertChannelSubscriptions, activated),
  },
  Query: {
    alertChannel: (_root, { id }, ctx) => {
      const restId = integerRestId(id, 'AlertChannel');
      return restId === null ? null : ctx.loaders.alertChannelById.load(restId);
    },
    alertChannels: (_root, { first, after }, ctx) =>
      offsetConnection(first, after, async (page, limit) => {
        const res = await ctx.rest.get<RestAlertChannel[]>('/v1/alert-channels', { page, limit });
        for (const c of res.body) ctx.loaders.alertChannelById.prime(c.id, c);
        return { items: res.body, total: totalOfContentRange(res.headers['content-range']) };
      }),
  },
};
