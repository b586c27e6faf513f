import Type from 'typebox';
import { createAlertChannelService } from '../service/alert-channel-service.js';
import type { Api, ApiContext } from './api-context.js';
import { sendPage } from './pagination.js';
import { normaliseQueryArrays } from './query-arrays.js';
import { AlertChannelCreate, AlertChannelId, AlertChannelUpdate, SubscriptionsBody } from '../contract/alert-channel-schemas.js';
import { PageQuery } from '../contract/common.js';

const IdParams = Type.Object({ id: AlertChannelId });
const tags = ['Alert channels'];

/** `/v1/alert-channels`: CRUD and the channel's check and group subscriptions. */
export function alertChannelsRoutes(app: Api, { store }: ApiContext): void {
  const channels = createAlertChannelService({ store });

  app.get('/v1/alert-channels', {
    schema: {
      tags, summary: 'List alert channels', description: 'Filter: ids (comma-separated or repeated).',
      querystring: Type.Object({ ...PageQuery, ids: Type.Optional(Type.Array(AlertChannelId, { maxItems: 100 })) }, { additionalProperties: false }),
    },
    preValidation: normaliseQueryArrays(['ids'], ['ids']),
  }, async (req, reply) => {
    const { page = 1, limit = 10, ids } = req.query;
    const { items, total } = await channels.list(req.principal.accountId, page, limit, ids);
    return sendPage(reply, items, total, page, limit);
  });

  app.post('/v1/alert-channels', { schema: { tags, summary: 'Create an alert channel', body: AlertChannelCreate } }, async (req, reply) =>
    reply.code(201).send(await channels.create(req.principal.accountId, req.body)));

  app.get('/v1/alert-channels/:id', { schema: { tags, summary: 'Get an alert channel', params: IdParams } }, async (req) =>
    channels.get(req.principal.accountId, req.params.id));

  app.put('/v1/alert-channels/:id', {
    schema: {
      tags, summary: 'Update an alert channel',
      description: 'Fields left out keep their value; a config sent replaces the stored one. Secret fields left out or sent masked keep their value; webhookSecret: null removes it. '
        + 'Locked webhook headers and query parameters read back with value null; sent back with value null (or without value) they keep the stored value of the same key, '
        + 'a value sent replaces it, and one left out of the list is removed. Unlocking an entry needs its value.',
      params: IdParams, body: AlertChannelUpdate,
    },
  }, async (req) => channels.update(req.principal.accountId, req.params.id, req.body));

  app.delete('/v1/alert-channels/:id', { schema: { tags, summary: 'Delete an alert channel and its subscriptions', params: IdParams } }, async (req, reply) => {
    await channels.delete(req.principal.accountId, req.params.id);
    return reply.code(204).send();
  });

  app.put('/v1/alert-channels/:id/subscriptions', {
    schema: {
      tags, summary: 'Subscribe checks or groups to an alert channel',
      description: 'One {checkId | groupId, activated} or a list of them; each is created or updated (activated: false keeps it, deactivated). Answers in the form sent.',
      params: IdParams, body: SubscriptionsBody,
    },
    // The body is one object or a list: validated against the matching form by the service, so errors name exact keys.
    attachValidation: true,
  }, async (req) => {
    const failed = req.validationError as (Error & { validationContext?: string }) | undefined;
    if (failed && failed.validationContext !== 'body') throw failed;
    return channels.updateSubscriptions(req.principal.accountId, req.params.id, req.body);
  });
}
