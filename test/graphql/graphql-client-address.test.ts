import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrustProxy } from '../../src/config.js';
import { CLIENT_ADDRESS_HEADER } from '../../src/graphql/create-in-process-dispatcher.js';
import { gql } from '../support/graphql.js';
import { graphqlTransport, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * A server trusting these proxies. Its GraphQL layer reaches REST in-process, or over HTTP
 * (GRAPHQL_BACKEND_URL) as a separate layer would: this suite runs in both graphql projects.
 */
const serverWith = (trustProxy: TrustProxy): Promise<TestServer> => startTestServer({ config: { trustProxy } });

/** The address the audit log names for the snippet called `name`. */
async function recordedAddress(s: TestServer, name: string): Promise<string | null> {
  const snippets = (await s.a.request('GET', '/v1/snippets')).body as { id: string; name: string }[];
  const id = snippets.find((x) => x.name === name)!.id;
  const log = await s.a.request('GET', `/v1/accounts/me/audit-log?resourceType=snippet&resourceId=${id}`);
  expect(log.body.entries).toHaveLength(1);
  return log.body.entries[0].ip;
}

const createSnippet = (name: string) => `mutation { createSnippet(input: {name: "${name}", script: "//"}) { snippet { id } } }`;

describe(`the caller's address behind the GraphQL layer (${graphqlTransport()})`, () => {
  describe('behind a proxy the server trusts', () => {
    let s: TestServer;
    beforeAll(async () => {
      s = await serverWith(['loopback']);
    });
    afterAll(async () => s?.close());

    it('records a GraphQL write as coming from the caller, not from the layer', async () => {
      const res = await gql(s.a, createSnippet('from afar'), undefined, { 'x-forwarded-for': '203.0.113.7' });
      expect(res.errors).toBeUndefined();
      expect(await recordedAddress(s, 'from afar')).toBe('203.0.113.7');
    });
  });

  describe('with no proxy trusted', () => {
    let s: TestServer;
    beforeAll(async () => {
      s = await serverWith(false);
    });
    afterAll(async () => s?.close());

    it('records the address the connection came from, whatever a caller claims', async () => {
      expect((await gql(s.a, createSnippet('claims x-forwarded-for'), undefined, { 'x-forwarded-for': '203.0.113.7' })).errors).toBeUndefined();
      expect((await gql(s.a, createSnippet('claims the layer header'), undefined, { [CLIENT_ADDRESS_HEADER]: '203.0.113.8' })).errors).toBeUndefined();
      expect((await s.a.request('POST', '/v1/snippets', { name: 'claims it over REST', script: '//' }, { [CLIENT_ADDRESS_HEADER]: '203.0.113.9' })).status).toBe(201);
      for (const name of ['claims x-forwarded-for', 'claims the layer header', 'claims it over REST']) expect(await recordedAddress(s, name)).toBe('127.0.0.1');
    });
  });
});
