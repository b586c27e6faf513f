import { randomUUID } from 'node:crypto';
import mqtt from 'mqtt';
import WebSocket from 'ws';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql } from '../support/graphql.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';

/** A client of account A with another key of A. */
const withKey = (s: TestServer, key: string): TestClient => ({
  ...s.a,
  apiKey: key,
  async request(method, path, body, headers = {}) {
    return s.a.request(method, path, body, { authorization: `Bearer ${key}`, ...headers });
  },
});

describe('API keys of the account (/v1/accounts/me/api-keys)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => s?.close());

  it('creates a key answered once, lists keys by name, first and last characters, creation and last use, never the key or its hash', async () => {
    const made = await s.a.request('POST', '/v1/accounts/me/api-keys', { name: 'CI pipeline' });
    expect(made.status).toBe(201);
    const key = made.body.key as string;
    expect(key).toMatch(/^lo_[0-9a-f]{64}$/);
    expect(made.body).toEqual({
      id: expect.any(String), name: 'CI pipeline', prefix: key.slice(0, 11), maskedKey: `********${key.slice(-4)}`,
      createdAt: expect.any(String), lastUsedAt: null, key, kind: 'service', role: 'OWNER', userId: null, expiresAt: null,
    });
    const listed = await s.a.request('GET', '/v1/accounts/me/api-keys');
    expect(listed.status).toBe(200);
    const row = listed.body.find((k: { id: string }) => k.id === made.body.id);
    expect(row).toEqual({ ...made.body, key: undefined });
    expect(Object.keys(row)).not.toContain('key');
    expect(JSON.stringify(listed)).not.toContain(key);
    expect(listed.text).not.toContain(key.slice(11, -4));
    // The bootstrap key is listed too, and was used by this very request.
    expect(listed.body.length).toBe(2);
    expect(listed.body[0].lastUsedAt).not.toBeNull();

    expect((await withKey(s, key).request('GET', '/v1/checks')).status).toBe(200);
    const after = await s.a.request('GET', '/v1/accounts/me/api-keys');
    expect(after.body.find((k: { id: string }) => k.id === made.body.id).lastUsedAt).toEqual(expect.any(String));
  });

  it('refuses a missing, blank or too long name, naming it (400)', async () => {
    for (const body of [{}, { name: '   ' }, { name: 'x'.repeat(101) }]) {
      const res = await s.a.request('POST', '/v1/accounts/me/api-keys', body);
      expect(res.status, `${JSON.stringify(body)} ${res.text}`).toBe(400);
      expect(res.text).toContain('name');
    }
  });

  it("keeps accounts apart: another account's keys are neither listed nor revocable (404 as for an unknown id)", async () => {
    const bKeys = await s.b.request('GET', '/v1/accounts/me/api-keys');
    const aKeys = await s.a.request('GET', '/v1/accounts/me/api-keys');
    expect(bKeys.body.map((k: { id: string }) => k.id)).not.toContain(aKeys.body[0].id);
    const other = await s.b.request('DELETE', `/v1/accounts/me/api-keys/${aKeys.body[0].id}`);
    const unknown = await s.b.request('DELETE', `/v1/accounts/me/api-keys/${randomUUID()}`);
    expect(other.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect((await s.a.request('GET', '/v1/checks')).status).toBe(200);
  });

  it("refuses to revoke the account's last key (409 LAST_API_KEY)", async () => {
    const [only] = (await s.b.request('GET', '/v1/accounts/me/api-keys')).body;
    const res = await s.b.request('DELETE', `/v1/accounts/me/api-keys/${only.id}`);
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('last API key');
    expect((await s.b.request('GET', '/v1/checks')).status).toBe(200);
  });

  it('revokes a key at once: REST, GraphQL, its event stream, its graphql-ws socket and its MQTT client all end', async () => {
    const made = await s.a.request('POST', '/v1/accounts/me/api-keys', { name: 'to revoke' });
    const key = made.body.key as string;
    const c = withKey(s, key);
    // Used first, so every cache holds it.
    expect((await c.request('GET', '/v1/checks')).status).toBe(200);
    expect((await c.request('POST', '/graphql', { query: '{ checks(first: 1) { totalCount } }' })).status).toBe(200);

    const stream = await fetch(`${s.url}/v1/events/stream`, { headers: { authorization: `Bearer ${key}` } });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    await reader.read(); // the "connected" comment
    const streamEnded = (async () => {
      for (;;) if ((await reader.read()).done) return true;
    })();

    const socketClosed = new Promise<number>((resolve, reject) => {
      const ws = createClient({
        url: `${s.url.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, lazy: false, retryAttempts: 0,
        connectionParams: { authorization: `Bearer ${key}`, accountId: s.a.accountId },
        onNonLazyError: reject,
        on: { closed: (e) => resolve((e as { code: number }).code) },
      });
      void ws;
    });
    const mqttClient = await mqtt.connectAsync(`${s.url.replace(/^http/, 'ws')}/mqtt`, {
      username: s.a.accountId, password: key, reconnectPeriod: 0, protocolVersion: 4, connectTimeout: 5000,
    });
    const mqttClosed = new Promise<void>((resolve) => mqttClient.once('close', () => resolve()));
    // The socket is acknowledged before the revocation.
    await new Promise<void>((resolve) => setImmediate(resolve));

    expect((await s.a.request('DELETE', `/v1/accounts/me/api-keys/${made.body.id}`)).status).toBe(204);
    expect((await c.request('GET', '/v1/checks')).status).toBe(401);
    // Refused at the door like REST, though the layer had accepted this caller a moment ago.
    const viaGraphql = await c.request('POST', '/graphql', { query: '{ checks(first: 1) { totalCount } }' });
    expect(viaGraphql.status, viaGraphql.text).toBe(401);
    expect(viaGraphql.body.data?.checks ?? null).toBeNull();
    expect(viaGraphql.text).toContain('UNAUTHENTICATED');
    expect(await streamEnded).toBe(true);
    expect(await socketClosed).toBe(4403);
    await mqttClosed;
    await expect(mqtt.connectAsync(`${s.url.replace(/^http/, 'ws')}/mqtt`, {
      username: s.a.accountId, password: key, reconnectPeriod: 0, protocolVersion: 4, connectTimeout: 5000,
    })).rejects.toThrow();
    const listed = await s.a.request('GET', '/v1/accounts/me/api-keys');
    expect(listed.body.map((k: { id: string }) => k.id)).not.toContain(made.body.id);
  });

  it('lists, creates (the key once) and revokes keys over GraphQL, with userErrors for bad input, unknown keys and the last key', async () => {
    const made = await gql(s.a, 'mutation($n: String!) { createApiKey(input: { name: $n }) { key apiKey { id name prefix maskedKey lastUsedAt } userErrors { field code } } }', { n: 'from GraphQL' });
    const { key, apiKey, userErrors } = made.data!.createApiKey;
    expect(userErrors).toEqual([]);
    expect(key).toMatch(/^lo_/);
    expect(apiKey).toEqual({ id: expect.any(String), name: 'from GraphQL', prefix: key.slice(0, 11), maskedKey: `********${key.slice(-4)}`, lastUsedAt: null });
    const listed = await gql(s.a, '{ apiKeys { id name } }');
    expect(listed.data!.apiKeys).toContainEqual({ id: apiKey.id, name: 'from GraphQL' });
    expect(JSON.stringify(listed)).not.toContain(key);

    const blank = await gql(s.a, 'mutation { createApiKey(input: { name: " " }) { key apiKey { id } userErrors { field code } } }');
    expect(blank.data!.createApiKey).toEqual({ key: null, apiKey: null, userErrors: [{ field: 'name', code: 'BAD_USER_INPUT' }] });
    const unknown = await gql(s.a, 'mutation($id: ID!) { revokeApiKey(id: $id) { revokedId userErrors { field code } } }', { id: randomUUID() });
    expect(unknown.data!.revokeApiKey).toEqual({ revokedId: null, userErrors: [{ field: 'id', code: 'NOT_FOUND' }] });
    const [bOnly] = (await s.b.request('GET', '/v1/accounts/me/api-keys')).body;
    const last = await gql(s.b, 'mutation($id: ID!) { revokeApiKey(id: $id) { revokedId userErrors { field code } } }', { id: bOnly.id });
    expect(last.data!.revokeApiKey).toEqual({ revokedId: null, userErrors: [{ field: 'id', code: 'LAST_API_KEY' }] });

    const revoked = await gql(s.a, 'mutation($id: ID!) { revokeApiKey(id: $id) { revokedId userErrors { field } } }', { id: apiKey.id });
    expect(revoked.data!.revokeApiKey).toEqual({ revokedId: apiKey.id, userErrors: [] });
    expect((await withKey(s, key).request('GET', '/v1/checks')).status).toBe(401);
  });

  it('documents the routes in the OpenAPI contract', async () => {
    const doc = (await s.raw('GET', '/openapi.json')).body;
    expect(doc.paths['/v1/accounts/me/api-keys'].get.operationId).toBe('listApiKeys');
    expect(doc.paths['/v1/accounts/me/api-keys'].post.operationId).toBe('createApiKey');
    expect(doc.paths['/v1/accounts/me/api-keys/{keyId}'].delete.operationId).toBe('revokeApiKey');
    expect(doc.components.schemas.ApiKey.properties).not.toHaveProperty('key');
  });
});
