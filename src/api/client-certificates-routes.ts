import type { Api, ApiContext } from './api-context.js';
import { sendPage } from './pagination.js';
import {
  ClientCertificateCreate, ClientCertificateListQuery, ClientCertificateParams,
} from '../contract/client-certificate-schemas.js';
import { ref } from '../contract/response-shape.js';
import { NO_CONTENT, responses } from '../contract/route-responses.js';

const tags = ['Client certificates'];
const USE = 'API and URL checks present the account\'s certificate for their target host (exact host first, else the longest matching wildcard) '
  + 'when the server asks for one in the TLS handshake.';

/** `/v1/client-certificates`: certificates API and URL checks present for mutual TLS. */
export function clientCertificatesRoutes(app: Api, { clientCertificates }: ApiContext): void {
  app.get('/v1/client-certificates', {
    schema: {
      operationId: 'listClientCertificates',
      tags,
      summary: 'List client certificates',
      description: `${USE} Oldest first; offset pagination, the total is in Content-Range.`,
      querystring: ClientCertificateListQuery,
      response: responses({ 200: ref('ClientCertificateList') }),
    },
  }, async (req, reply) => {
    const { page = 1, limit = 10 } = req.query;
    const { items, total } = await clientCertificates.list(req.principal.accountId, page, limit);
    return sendPage(reply, items, total, page, limit);
  });

  app.post('/v1/client-certificates', {
    schema: {
      operationId: 'createClientCertificate',
      tags,
      summary: 'Create a client certificate',
      description: `${USE} 400 naming the key when the certificate or key does not parse, they do not belong together, or the passphrase does not open the key; `
        + '409 when the account has a certificate for that host already. key and passphrase are never read back.',
      body: ClientCertificateCreate,
      response: responses({ 201: ref('ClientCertificate') }, 409),
    },
  }, async (req, reply) => reply.code(201).send(await clientCertificates.create(req.principal.accountId, req.body)));

  app.get('/v1/client-certificates/:id', {
    schema: {
      operationId: 'getClientCertificate', tags, summary: 'Get a client certificate', params: ClientCertificateParams, response: responses({ 200: ref('ClientCertificate') }),
    },
  }, async (req) => clientCertificates.get(req.principal.accountId, req.params.id));

  app.delete('/v1/client-certificates/:id', {
    schema: {
      operationId: 'deleteClientCertificate',
      tags,
      summary: 'Delete a client certificate',
      description: 'Runs starting afterwards no longer present it.',
      params: ClientCertificateParams,
      response: responses({ 204: NO_CONTENT }),
    },
  }, async (req, reply) => {
    await clientCertificates.delete(req.principal.accountId, req.params.id);
    return reply.code(204).send();
  });
}
