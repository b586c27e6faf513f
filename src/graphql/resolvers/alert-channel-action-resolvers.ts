import { WEBHOOK_TEMPLATE_VARIABLES } from '../../domain/webhook-template-variables.js';
import type { components } from '../../contract/__generated__/openapi.js';
import type { Resolvers } from '../__generated__/resolvers-types.js';
import { checkRestId, groupRestId, integerRestId, requireRestId } from '../global-id.js';
import type { RestChannelSubscription } from '../rest-config-types.js';
import { withUserErrors } from '../user-errors.js';

type TestAnswer = components['schemas']['AlertChannelTestAnswer'];

function channelIdOf(id: string): number {
  return requireRestId(integerRestId(id, 'AlertChannel'), 'Alert channel', id);
}

/** "Send test", bulk subscriptions and the webhook template variables (straight from the domain's list: no REST call). */
export const alertChannelActionResolvers: Resolvers = {
  Query: {
    webhookTemplateVariables: () => WEBHOOK_TEMPLATE_VARIABLES.map((v) => ({ name: v.name, description: v.description })),
  },
  Mutation: {
    testAlertChannel: async (_root, { id }, ctx) =>
      (await ctx.rest.send<TestAnswer>('POST', `/v1/alert-channels/${channelIdOf(id)}/test`)).body,
    subscribeToAlertChannel: async (_root, args, ctx) => {
      const restId = channelIdOf(args.id);
      // Ids that cannot be a check or group are sent as given: the REST API names them in its 400 keys.
      const body = {
        ...(args.checkIds != null ? { checkIds: args.checkIds.map((c) => checkRestId(c) ?? c) } : {}),
        ...(args.groupIds != null ? { groupIds: args.groupIds.map((g) => groupRestId(g) ?? g) } : {}),
        ...(args.all != null ? { all: args.all } : {}),
        ...(args.activated != null ? { activated: args.activated } : {}),
      };
      const { value, userErrors } = await withUserErrors(async () =>
        (await ctx.rest.send<{ subscriptions: RestChannelSubscription[] }>('POST', `/v1/alert-channels/${restId}/subscriptions`, body)).body);
      if (!value) return { alertChannel: null, subscriptions: null, userErrors };
      for (const s of value.subscriptions) {
        if (s.checkId) ctx.loaders.checkById.clear(s.checkId);
        if (s.groupId) ctx.loaders.groupById.clear(s.groupId);
      }
      const alertChannel = await ctx.loaders.alertChannelById.clear(restId).load(restId);
      return { alertChannel, subscriptions: value.subscriptions, userErrors: [] };
    },
  },
};
