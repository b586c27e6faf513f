import Type from 'typebox';
import { createAlertChannelService } from '../service/alert-channel-service.js';
import type { Api, ApiContext } from './api-context.js';
import { sendPage } from './pagination.js';
import { normaliseQueryArrays } from './query-arrays.js';
import { AlertChannelCreate, AlertChannelId, AlertChannelUpdate, SubscriptionsBody } from '../contract/alert-channel-schemas.js';
import { PageQuery } from '../contract/common.js';
import { ref } from '../contract/response-shape.js';
import { NO_CONTENT, responses } from '../contract/route-responses.js';

const IdParams = Type.Object({ id: AlertChannelId });
const tags = ['Alert channels'];

/** `/v1/alert-channels`: CRUD and the channel's check and group subscriptions. */
export function alertChannelsRoutes(app: Api, { store }: ApiContext): void {
  const channels = createAlertChannelService({ store });

  app.get('/v1/alert-channels', {
    schema: {
      operationId: 'listAlertChannels', tags, summary: 'List alert channels', description: 'Filter: ids (comma-separated or repeated), answered in the order given.',
      response: responses({ 200: ref('AlertChannelList') }),
      querystring: Type.Object({ ...PageQuery, ids: Type.Optional(Type.Array(AlertChannelId, { maxItems: 100 })) }, { additionalProperties: false }),
    },
    preValidation: normaliseQueryArrays(['ids'], ['ids']),
  }, async (req, reply) => {
    const { page = 1, limit = 10, ids } = req.query;
    const { items, total } = await channels.list(req.principal.accountId, page, limit, ids);
    return sendPage(reply, items, total, page, limit);
  });

  app.post('/v1/alert-channels', {
    schema: { operationId: 'createAlertChannel', tags, summary: 'Create an alert channel', body: AlertChannelCreate, response: responses({ 201: ref('AlertChannel') }) },
  }, async (req, reply) =>
    reply.code(201).send(await channels.create(req.principal.accountId, req.body)));

  app.get('/v1/alert-channels/:id', {
    schema: { operationId: 'getAlertChannel', tags, summary: 'Get an alert channel', params: IdParams, response: responses({ 200: ref('AlertChannel') }) },
  }, async (req) =>
    channels.get(req.principal.accountId, req.params.id));

  app.put('/v1/alert-channels/:id', {
    schema: {
      operationId: 'updateAlertChannel', tags, summary: 'Update an alert channel', response: responses({ 200: ref('AlertChannel') }),
      description: 'Fields left out keep their value; a config sent replaces the stored one. Secret fields left out or sent masked keep their value; webhookSecret: null removes it. '
        + 'Locked webhook headers and query parameters read back with value null; sent back with value null (or without value) they keep the stored value of the same key, '
        + 'a value sent replaces it, and one left out of the list is removed. Unlocking an entry needs its value.',
      params: IdParams, body: AlertChannelUpdate,
    },
  }, async (req) => channels.update(req.principal.accountId, req.params.id, req.body));

  app.delete('/v1/alert-channels/:id', {
    schema: { operationId: 'deleteAlertChannel', tags, summary: 'Delete an alert channel and its subscriptions', params: IdParams, response: responses({ 204: NO_CONTENT }) },
  }, async (req, reply) => {
    await channels.delete(req.principal.accountId, req.params.id);
    return reply.code(204).send();
  });

  app.put('/v1/alert-channels/:id/subscriptions', {
    schema: {
      operationId: 'updateAlertChannelSubscriptions', tags, summary: 'Subscribe checks or groups to an alert channel',
      response: responses({ 200: ref('AlertChannelSubscriptionsAnswer') }),
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
