import type { TestClient, TestServer } from './test-server.js';

/**
 * `client`'s account and key, sending its requests to another server: a GraphQL front whose REST
 * backend is `client`'s server (through a proxy), so the front's own accounts do not apply.
 */
export function clientVia(server: TestServer, client: TestClient): TestClient {
  return {
    ...client,
    request: (method, path, body, headers) =>
      server.a.request(method, path, body, { authorization: `Bearer ${client.apiKey}`, 'x-lookout-account': client.accountId, ...headers }),
  };
}
