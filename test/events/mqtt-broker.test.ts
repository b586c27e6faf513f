import mqtt, { type MqttClient } from 'mqtt';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/domain/api-key.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';

/**
 * The embedded MQTT broker at /mqtt on the API's port: MQTT 3.1.1 over WebSocket, the account id
 * as username and its API key as password, each client confined to its account's topics.
 */
/** The arguments of the client's next `event`. */
function next(client: MqttClient, event: 'message' | 'close'): Promise<unknown[]> {
  return new Promise((resolve) => client.once(event, (...args: unknown[]) => resolve(args)));
}

describe('the MQTT broker', () => {
  let server: TestServer;
  let mqttUrl: string;
  const opened: MqttClient[] = [];

  beforeAll(async () => {
    server = await startTestServer({ contract: false });
    mqttUrl = `${server.url.replace(/^http/, 'ws')}/mqtt`;
  });

  afterAll(async () => {
    await Promise.all(opened.map((c) => c.endAsync(true)));
    await server?.close();
  });

  /** Connects as `client` (or with the credentials given); never reconnects. */
  async function connect(username: string, password: string): Promise<MqttClient> {
    const client = await mqtt.connectAsync(mqttUrl, { username, password, reconnectPeriod: 0, protocolVersion: 4, connectTimeout: 5000 });
    opened.push(client);
    return client;
  }
  const as = (c: TestClient) => connect(c.accountId, c.apiKey);

  it('accepts an account id with its API key and delivers what the server publishes on its topics', async () => {
    const client = await as(server.a);
    const topic = `account/${server.a.accountId}/ad-hoc-check-results/suite-1/seq-1/run-1/run-start`;
    const granted = await client.subscribeAsync(`account/${server.a.accountId}/ad-hoc-check-results/suite-1/+/+/+`);
    expect(granted.map((g) => g.qos)).toEqual([0]);
    const received = next(client, 'message');
    await server.lookout.mqtt.publish(topic, { hello: 'a' });
    const [gotTopic, payload] = await received as [string, Buffer];
    expect(gotTopic).toBe(topic);
    expect(JSON.parse(payload.toString('utf8'))).toEqual({ hello: 'a' });
  });

  it.each([
    ['a wrong API key', (s: TestServer) => [s.a.accountId, 'not-the-key']],
    ['the key of another account', (s: TestServer) => [s.a.accountId, s.b.apiKey]],
    ['no password', (s: TestServer) => [s.a.accountId, '']],
    ['an unknown account id', (s: TestServer) => ['00000000-0000-4000-8000-000000000000', s.a.apiKey]],
  ] as const)('refuses a connection with %s', async (_what, credentials) => {
    const [username, password] = credentials(server);
    await expect(connect(username!, password!)).rejects.toThrow(/Bad username or password|Not authorized/i);
  });

  it.each([
    ['another account\'s topics', (s: TestServer) => `account/${s.b.accountId}/ad-hoc-check-results/#`],
    ['every account (single-level wildcard)', () => 'account/+/ad-hoc-check-results/#'],
    ['everything', () => '#'],
    ['topics outside any account', () => 'system/status'],
  ] as const)('refuses a subscription to %s, keeping the connection', async (_what, topicOf) => {
    const client = await as(server.a);
    // The SUBACK answers 0x80 (failure) for the topic; mqtt.js rejects with that packet.
    const refusal = await client.subscribeAsync(topicOf(server)).then(() => null, (err: { packet?: { granted?: number[] } }) => err);
    expect(refusal?.packet?.granted).toEqual([128]);
    expect(client.connected).toBe(true);
  });

  it('delivers nothing of another account to a client, even when published', async () => {
    const spy = await as(server.b);
    await spy.subscribeAsync(`account/${server.b.accountId}/#`);
    const own = await as(server.a);
    await own.subscribeAsync(`account/${server.a.accountId}/#`);
    const seen: string[] = [];
    spy.on('message', (topic) => seen.push(topic));
    const ownReceived = next(own, 'message');
    await server.lookout.mqtt.publish(`account/${server.a.accountId}/x`, {});
    await ownReceived;
    // The b client's own marker arrives after anything published before it (one broker, in order).
    const marker = next(spy, 'message');
    await server.lookout.mqtt.publish(`account/${server.b.accountId}/marker`, {});
    await marker;
    expect(seen).toEqual([`account/${server.b.accountId}/marker`]);
  });

  it('scopes client ids to their account: another account reusing one neither takes the session over nor sees it', async () => {
    /** Connects keeping a session under `clientId`; resolves with the client and its CONNACK's sessionPresent. */
    const keep = (c: TestClient, clientId: string) => new Promise<{ client: MqttClient; sessionPresent: boolean }>((resolve, reject) => {
      const client = mqtt.connect(mqttUrl, { username: c.accountId, password: c.apiKey, clientId, clean: false, reconnectPeriod: 0, protocolVersion: 4, connectTimeout: 5000 });
      opened.push(client);
      client.once('connect', (connack) => resolve({ client, sessionPresent: connack.sessionPresent }));
      client.once('error', reject);
    });
    const first = await keep(server.a, 'shared-client-id');
    await first.client.subscribeAsync(`account/${server.a.accountId}/#`, { qos: 1 });
    const aClosed: unknown[] = [];
    first.client.on('close', () => aClosed.push('close'));
    const intruder = await keep(server.b, 'shared-client-id');
    expect(intruder.sessionPresent).toBe(false);
    // The takeover of a client with the same id happens before the CONNACK: the first is still served.
    const received = next(first.client, 'message');
    await server.lookout.mqtt.publish(`account/${server.a.accountId}/still-here`, {});
    expect((await received)[0]).toBe(`account/${server.a.accountId}/still-here`);
    expect(aClosed).toEqual([]);
    // The same account reconnecting under its id does find its session.
    first.client.end(true);
    const again = await keep(server.a, 'shared-client-id');
    expect(again.sessionPresent).toBe(true);
  });

  it('asks the clients of one account again, drops those refused and keeps those whose check throws', async () => {
    const keyOf = async (name: string) => (await server.a.request('POST', '/v1/accounts/me/api-keys', { name })).body.key as string;
    const [refusedKey, erringKey] = [await keyOf('refused'), await keyOf('erring')];
    const refusedClient = await connect(server.a.accountId, refusedKey);
    const erring = await connect(server.a.accountId, erringKey);
    const kept = await as(server.a);
    const otherAccount = await as(server.b);
    const closed = next(refusedClient, 'close');
    const askedAccounts = new Set<string>();
    const dropped = await server.lookout.mqtt.recheck(server.a.accountId, async (keyHash, accountId) => {
      askedAccounts.add(accountId);
      if (keyHash === hashApiKey(erringKey)) throw new Error('database away');
      return keyHash !== hashApiKey(refusedKey);
    });
    expect(askedAccounts).toEqual(new Set([server.a.accountId]));
    expect(dropped).toBe(1);
    await closed;
    expect([refusedClient.connected, erring.connected, kept.connected, otherAccount.connected]).toEqual([false, true, true, true]);
  });

  it('closes a client that publishes: only the server writes results', async () => {
    const client = await as(server.a);
    const closed = next(client, 'close');
    client.publish(`account/${server.a.accountId}/ad-hoc-check-results/s/q/r/result`, '{"forged":true}', { qos: 1 });
    await closed;
    expect(client.connected).toBe(false);
  });

  it('refuses a WebSocket upgrade to a path no handler serves, and leaves /graphql to graphql-ws', async () => {
    const nowhere = new WebSocket(`${server.url.replace(/^http/, 'ws')}/nowhere`);
    await new Promise<void>((resolve) => nowhere.once('error', () => resolve()));
    const graphql = new WebSocket(`${server.url.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws');
    await new Promise<void>((resolve, reject) => {
      graphql.once('open', () => resolve());
      graphql.once('error', reject);
    });
    graphql.close();
  });
});
