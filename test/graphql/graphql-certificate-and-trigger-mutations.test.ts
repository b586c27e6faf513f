import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toGlobalId } from '../../src/graphql/global-id.js';
import { BACKENDS } from '../support/backends.js';
import { gql, gqlData } from '../support/graphql.js';
import { createTestCa, type Pem, type TestCa } from '../support/mtls-target.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const ERRORS = 'userErrors { field code message }';
const CREATE_CERTIFICATE = `mutation($input: ClientCertificateInput!) { r: createClientCertificate(input: $input) {
  clientCertificate { clientCertificateId host cert ca createdAt updatedAt } ${ERRORS} } }`;
const DELETE_CERTIFICATE = `mutation($id: ID!) { r: deleteClientCertificate(id: $id) { deletedId ${ERRORS} } }`;
const TOKEN = 'triggerToken { token url checkId groupId calledAt createdAt }';
const checkToken = (verb: string) => `mutation($id: ID!) { r: ${verb}CheckTriggerToken(checkId: $id) { ${verb === 'delete' ? 'deleted' : TOKEN} ${ERRORS} } }`;
const groupToken = (verb: string) => `mutation($id: ID!) { r: ${verb}GroupTriggerToken(groupId: $id) { ${verb === 'delete' ? 'deleted' : TOKEN} ${ERRORS} } }`;

describe.each(BACKENDS)('GraphQL client certificate and trigger token mutations on $name', (backend) => {
  let s: TestServer;
  let ca: TestCa;
  let pem: Pem;

  beforeAll(async () => {
    ca = await createTestCa();
    [s, pem] = await Promise.all([startTestServer({ backend }), ca.issueClient('gql')]);
  });
  afterAll(async () => s?.close());

  describe('client certificates', () => {
    it('creates one through REST, never answering its key, and deletes it', async () => {
      const created = (await gqlData(s.a, CREATE_CERTIFICATE, { input: { host: 'mtls.example.com', cert: pem.cert, key: pem.key } })).r;
      expect(created.userErrors).toEqual([]);
      expect(created.clientCertificate).toEqual({
        clientCertificateId: expect.any(String), host: 'mtls.example.com', cert: pem.cert, ca: null, createdAt: expect.any(String), updatedAt: null,
      });
      const id = created.clientCertificate.clientCertificateId;
      expect((await s.a.request('GET', `/v1/client-certificates/${id}`)).status).toBe(200);

      expect((await gqlData(s.a, DELETE_CERTIFICATE, { id })).r).toEqual({ deletedId: id, userErrors: [] });
      expect((await s.a.request('GET', `/v1/client-certificates/${id}`)).status).toBe(404);
    });

    it('answers a key that does not parse as a userError naming `key`, writing nothing', async () => {
      const r = (await gqlData(s.a, CREATE_CERTIFICATE, { input: { host: 'broken.example.com', cert: pem.cert, key: 'not a key' } })).r;
      expect(r.clientCertificate).toBeNull();
      expect(r.userErrors).toEqual([{ field: 'key', code: 'BAD_USER_INPUT', message: expect.any(String) }]);
      expect((await s.a.request('GET', '/v1/client-certificates')).body.some((c: any) => c.host === 'broken.example.com')).toBe(false);
    });

    it("answers an unknown certificate or another account's as NOT_FOUND", async () => {
      const theirs = (await s.b.request('POST', '/v1/client-certificates', { host: 'theirs.example.com', cert: pem.cert, key: pem.key })).body.id;
      for (const id of [theirs, crypto.randomUUID(), 'not-an-id']) {
        expect((await gql(s.a, DELETE_CERTIFICATE, { id })).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
      }
      expect((await s.b.request('GET', `/v1/client-certificates/${theirs}`)).status).toBe(200);
    });
  });

  describe.each([
    ['check', checkToken, async () => (await s.a.request('POST', '/v1/checks/api', { name: 'Triggered', request: { url: 'https://example.test' } })).body.id as string,
      (id: string) => toGlobalId('Check', id), (id: string) => `/v1/triggers/checks/${id}`, 'checkId'],
    ['group', groupToken, async () => String((await s.a.request('POST', '/v1/check-groups', { name: 'Triggered' })).body.id),
      (id: string) => toGlobalId('CheckGroup', id), (id: string) => `/v1/triggers/check-groups/${id}`, 'groupId'],
  ] as const)("a %s's trigger token", (_kind, doc, create, globalId, restPath, idField) => {
    it('is created, rotated to a new token (REST then holds only the new one) and deleted', async () => {
      const id = await create();
      const made = (await gqlData(s.a, doc('create'), { id: globalId(id) })).r;
      expect(made.userErrors).toEqual([]);
      expect(made.triggerToken).toMatchObject({ token: expect.any(String), url: expect.stringContaining(made.triggerToken.token), calledAt: null });
      expect(String(made.triggerToken[idField])).toBe(id);
      expect((await s.a.request('GET', restPath(id))).body.token).toBe(made.triggerToken.token);

      const rotated = (await gqlData(s.a, doc('rotate'), { id: globalId(id) })).r;
      expect(rotated.userErrors).toEqual([]);
      expect(rotated.triggerToken.token).not.toBe(made.triggerToken.token);
      expect((await s.a.request('GET', restPath(id))).body.token).toBe(rotated.triggerToken.token);

      expect((await gqlData(s.a, doc('delete'), { id: globalId(id) })).r).toEqual({ deleted: true, userErrors: [] });
      expect((await s.a.request('GET', restPath(id))).status).toBe(404);
    });

    it("answers an unknown id or another account's as NOT_FOUND, for every verb", async () => {
      for (const verb of ['create', 'rotate', 'delete']) {
        const res = await gql(s.b, doc(verb), { id: globalId(await create()) });
        expect(res.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
        expect((await gql(s.a, doc(verb), { id: 'nothing' })).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
      }
    });
  });
});
