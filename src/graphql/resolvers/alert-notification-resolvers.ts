import type { AlertNotificationFilter, Resolvers } from '../__generated__/resolvers-types.js';
import { CHECK_TYPE_NAMES } from '../check-type-name.js';
import { offsetConnection, totalOfContentRange, type Connection } from '../connection.js';
import type { GraphqlContext } from '../context.js';
import { codedError } from '../errors.js';
import { checkRestId } from '../global-id.js';
import type { RestAlertNotification } from '../rest-config-types.js';
import type { RestQuery } from '../rest-client.js';
import { integerRestId } from '../global-id.js';
import { restCheckFields } from '../rest-check-fields.js';

/** A DateTime argument as the UNIX seconds the REST filters take. */
function unixSeconds(value: string | null | undefined, argumentName: string): number | undefined {
  if (value === null || value === undefined) return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms) || ms < 0) throw codedError('BAD_USER_INPUT', `"${argumentName}" must be an ISO-8601 date-time after 1970`, { argumentName });
  return Math.floor(ms / 1000);
}

/**
 * Delivery attempts through `GET /v1/alert-notifications`, as a connection. `scope` narrows to one
 * check or channel; null means the id given names nothing the caller can have, so nothing matches.
 */
export function alertNotificationConnection(
  ctx: GraphqlContext,
  args: { first?: number | null; after?: string | null; filter?: AlertNotificationFilter | null },
  scope: { checkId?: string; alertChannelId?: number } | null = {},
): Promise<Connection<RestAlertNotification>> {
  const { filter } = args;
  const query: RestQuery = {
    from: unixSeconds(filter?.from, 'filter.from'),
    to: unixSeconds(filter?.to, 'filter.to'),
    status: filter?.status ?? undefined,
    hasFailures: filter?.hasFailures ?? undefined,
  };
  // Still through offsetConnection: `first` and `after` are validated the same way.
  if (scope === null) return offsetConnection(args.first, args.after, async () => ({ items: [], total: 0 }));
  return offsetConnection(args.first, args.after, async (page, limit) => {
    const res = await ctx.rest.get<RestAlertNotification[]>('/v1/alert-notifications', { ...query, ...scope, page, limit });
    return { items: res.body, total: totalOfContentRange(res.headers['content-range']) };
  });
}

/** Check types whose `alertNotifications` field lists the check's delivery attempts. */
const checkFields = Object.fromEntries(Object.values(CHECK_TYPE_NAMES).map((typeName) => [typeName, {
  alertNotifications: (c: { id: string }, args: { first?: number | null; after?: string | null; filter?: AlertNotificationFilter | null }, ctx: GraphqlContext) =>
    alertNotificationConnection(ctx, args, { checkId: c.id }),
}]));

/** Alert notifications: the account-wide list, per check, and their check and channel. */
export const alertNotificationResolvers: Resolvers = {
  ...(checkFields as Resolvers),
  Query: {
    alertNotifications: (_root, { first, after, filter, checkId, alertChannelId }, ctx) => {
      const scope: { checkId?: string; alertChannelId?: number } = {};
      if (checkId != null) {
        const restId = checkRestId(checkId);
        if (!restId) return alertNotificationConnection(ctx, { first, after, filter }, null) as never;
        scope.checkId = restId;
      }
      if (alertChannelId != null) {
        const restId = integerRestId(alertChannelId, 'AlertChannel');
        if (restId === null) return alertNotificationConnection(ctx, { first, after, filter }, null) as never;
        scope.alertChannelId = restId;
      }
      return alertNotificationConnection(ctx, { first, after, filter }, scope) as never;
    },
  },
  AlertNotification: {
    notificationId: (n) => n.id,
    alertType: (n) => n.alertType as never,
    channelType: (n) => n.type as never,
    alertChannel: (n, _args, ctx) => (n.alertChannelId ? ctx.loaders.alertChannelById.load(n.alertChannelId) : null),
    check: (n, _args, ctx, info) => ctx.loaders.checkById.load(n.checkId, restCheckFields(info, false)),
    checkType: (n) => n.checkType as never,
    status: (n) => n.status as never,
    createdAt: (n) => n.created_at,
  },
};
