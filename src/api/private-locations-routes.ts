import { createPrivateLocationService } from '../service/private-location-service.js';
import type { Api, ApiContext } from './api-context.js';
import {
  PrivateLocationCreate, PrivateLocationIdParams, PrivateLocationKeyParams, PrivateLocationUpdate,
} from '../contract/private-location-schemas.js';
import { ref } from '../contract/response-shape.js';
import { NO_CONTENT, responses } from '../contract/route-responses.js';

const tags = ['Private locations'];

/** `/v1/private-locations`: CRUD (an unpaginated list) and the keys agents authenticate with. */
export function privateLocationsRoutes(app: Api, { store }: ApiContext): void {
  const privateLocations = createPrivateLocationService({ store });

  app.get('/v1/private-locations', {
    schema: { operationId: 'listPrivateLocations', tags, summary: 'List private locations (all of them, unpaginated)', response: responses({ 200: ref('PrivateLocationList') }) },
  }, async (req) =>
    privateLocations.list(req.principal.accountId));

  app.post('/v1/private-locations', {
    schema: {
      operationId: 'createPrivateLocation', tags, summary: 'Create a private location', response: responses({ 201: ref('PrivateLocation') }, 409),
      description: 'Also creates its first key: `keys[0].rawKey` is shown in this response only.',
      body: PrivateLocationCreate,
    },
  }, async (req, reply) => reply.code(201).send(await privateLocations.create(req.principal.accountId, req.body)));

  app.get('/v1/private-locations/:id', {
    schema: { operationId: 'getPrivateLocation', tags, summary: 'Get a private location', params: PrivateLocationIdParams, response: responses({ 200: ref('PrivateLocation') }) },
  }, async (req) =>
    privateLocations.get(req.principal.accountId, req.params.id));

  app.put('/v1/private-locations/:id', {
    schema: {
      operationId: 'updatePrivateLocation', tags, summary: 'Update a private location', response: responses({ 200: ref('PrivateLocation') }, 409),
      description: 'A slugName still used by checks or groups cannot change (409).',
      params: PrivateLocationIdParams, body: PrivateLocationUpdate,
    },
  }, async (req) => privateLocations.update(req.principal.accountId, req.params.id, req.body));

  app.delete('/v1/private-locations/:id', {
    schema: {
      operationId: 'deletePrivateLocation', tags, summary: 'Delete a private location not used by any check or group', description: 'Answers 409 while a check or group uses it.',
      params: PrivateLocationIdParams, response: responses({ 204: NO_CONTENT }, 409),
    },
  }, async (req, reply) => {
    await privateLocations.delete(req.principal.accountId, req.params.id);
    return reply.code(204).send();
  });

  app.post('/v1/private-locations/:id/keys', {
    schema: {
      operationId: 'createPrivateLocationKey', tags, summary: 'Generate a private location key (the raw key is shown in this response only)',
      params: PrivateLocationIdParams, response: responses({ 201: ref('PrivateLocationKey') }),
    },
  }, async (req, reply) => reply.code(201).send(await privateLocations.createKey(req.principal.accountId, req.params.id)));

  app.delete('/v1/private-locations/:id/keys/:keyId', {
    schema: { operationId: 'deletePrivateLocationKey', tags, summary: 'Revoke a private location key', params: PrivateLocationKeyParams, response: responses({ 204: NO_CONTENT }) },
  }, async (req, reply) => {
    await privateLocations.deleteKey(req.principal.accountId, req.params.id, req.params.keyId);
    return reply.code(204).send();
  });
}
