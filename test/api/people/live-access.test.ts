import { once } from 'node:events';
import mqtt from 'mqtt';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, sessionClient, type SessionClient } from '../../support/console-session.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';

/** A graphql-ws socket opened by hand, so it can carry a cookie like a browser's. */
async function openSocket(s: TestServer, headers: Record<string, string>, payload: Record<string, unknown>) {
  const ws = new WebSocket(`${s.url.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws', { headers });
  const closed = once(ws, 'close').then(([code]) => code as number);
  await once(ws, 'open');
  ws.send(JSON.stringify({ type: 'connection_init', payload }));
  const first = await Promise.race([once(ws, 'message').then(([data]) => JSON.parse(String(data)).type as string), closed.then((code) => `closed ${code}`)]);
  return { ws, first, closed };
}

/** An MQTT client of `checkly test`'s kind, connected with a key; `closed` settles when the broker drops it. */
async function openMqtt(s: TestServer, key: string) {
  const client = await mqtt.connectAsync(`${s.url.replace(/^http/, 'ws')}/mqtt`, {
    username: s.a.accountId, password: key, reconnectPeriod: 0, protocolVersion: 4, connectTimeout: 5000,
  });
  const closed = new Promise<boolean>((resolve) => client.once('close', () => resolve(true)));
  return { client, closed };
}

/** Reads an event stream until it ends; answers true then. */
async function streamEnds(res: Response): Promise<boolean> {
  const reader = res.body!.getReader();
  for (;;) if ((await reader.read()).done) return true;
}

describe('live connections follow access: sessions and members', () => {
  let s: TestServer;
  let owner: SessionClient;
  beforeAll(async () => {
    s = await startTestServer();
    owner = await signIn(s, 'owner@localhost', s.lookout.bootstrap.owner!.password!);
  });
  afterAll(async () => s?.close());

  it('opens a graphql-ws socket with the session cookie only when connection_init carries the CSRF token', async () => {
    const without = await openSocket(s, { cookie: owner.cookie }, {});
    expect(without.first).toBe('closed 4403');
    const wrong = await openSocket(s, { cookie: owner.cookie }, { csrfToken: 'guessed' });
    expect(wrong.first).toBe('closed 4403');
    const right = await openSocket(s, { cookie: owner.cookie }, { csrfToken: owner.csrf });
    expect(right.first).toBe('connection_ack');
    right.ws.close();
  });

  it('closes the sockets and event streams of sessions that end, at once', async () => {
    const person = await signIn(s, 'owner@localhost', s.lookout.bootstrap.owner!.password!);
    const socket = await openSocket(s, { cookie: person.cookie }, { csrfToken: person.csrf });
    expect(socket.first).toBe('connection_ack');
    const stream = await fetch(`${s.url}/v1/events/stream`, { headers: { cookie: person.cookie } });
    expect(stream.status).toBe(200);
    const ended = streamEnds(stream);
    expect((await person.request('DELETE', '/v1/sessions')).status).toBe(204);
    expect(await socket.closed).toBe(4403);
    expect(await ended).toBe(true);
    owner = await signIn(s, 'owner@localhost', s.lookout.bootstrap.owner!.password!);
  });

  it('closes the live connections of a member removed from the account (graphql-ws, event stream, MQTT), and keeps the others\'', async () => {
    const invited = await owner.request('POST', '/v1/accounts/me/invitations', { email: 'leaver@example.com', role: 'READ_ONLY' });
    const accepted = await s.raw('POST', `/v1/invitations/${invited.body.link.split('/').at(-1)}/accept`, {
      body: JSON.stringify({ name: 'Leaver', password: 'a long enough password' }), headers: { 'content-type': 'application/json' },
    });
    const leaver = sessionClient(s, accepted);
    const key = (await leaver.request('POST', '/v1/accounts/me/api-keys', { name: 'mine', kind: 'personal' })).body.key as string;
    const byKey = await openSocket(s, {}, { authorization: `Bearer ${key}` });
    const byCookie = await openSocket(s, { cookie: leaver.cookie }, { csrfToken: leaver.csrf });
    const ownerSocket = await openSocket(s, {}, { authorization: `Bearer ${s.a.apiKey}` });
    expect([byKey.first, byCookie.first, ownerSocket.first]).toEqual(['connection_ack', 'connection_ack', 'connection_ack']);
    const stream = await fetch(`${s.url}/v1/events/stream`, { headers: { authorization: `Bearer ${key}` } });
    const ended = streamEnds(stream);
    const leaverMqtt = await openMqtt(s, key);
    const ownerMqtt = await openMqtt(s, s.a.apiKey);

    expect((await owner.request('DELETE', `/v1/accounts/me/members/${leaver.view.user.id}`)).status).toBe(204);
    expect(await byKey.closed).toBe(4403);
    expect(await byCookie.closed).toBe(4403);
    expect(await ended).toBe(true);
    expect(await leaverMqtt.closed).toBe(true);
    expect(ownerSocket.ws.readyState).toBe(WebSocket.OPEN);
    ownerSocket.ws.close();
    // Asked again with the rest of the account, the owner's client was kept.
    expect(ownerMqtt.client.connected).toBe(true);
    await ownerMqtt.client.endAsync();
    await expect(openMqtt(s, key)).rejects.toThrow();
  });
});
