import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRemoteEventSource } from '../../src/graphql/create-remote-event-source.js';
import type { EventOf, LookoutEvent } from '../../src/events/lookout-event.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** An open `GET /v1/events/stream`: its SSE messages parsed, taken in order as they arrive. */
interface OpenStream {
  status: number;
  headers: Headers;
  next(): Promise<{ id: string; event: string; data: any }>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  cancel(): Promise<void>;
}

async function openStream(url: string, headers: Record<string, string>): Promise<OpenStream> {
  const res = await fetch(url, { headers });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const messages: Array<{ id: string; event: string; data: any }> = [];
  const waiters: Array<(m: { id: string; event: string; data: any }) => void> = [];
  let buffer = '';
  let connected!: () => void;
  const live = new Promise<void>((resolve) => {
    connected = resolve;
  });
  const ended = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (block.startsWith(': connected')) connected();
        if (block.startsWith(':')) continue;
        const fields = Object.fromEntries(block.split('\n').map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]));
        const message = { id: fields.id!, event: fields.event!, data: JSON.parse(fields.data!) };
        const w = waiters.shift();
        if (w) w(message);
        else messages.push(message);
      }
    }
  })();
  if (res.status === 200) await live;
  return {
    status: res.status,
    headers: res.headers,
    next: () => (messages.length > 0 ? Promise.resolve(messages.shift()!) : new Promise((resolve) => waiters.push(resolve))),
    ended,
    cancel: () => reader.cancel(),
  };
}

function resultEvent(accountId: string): EventOf<'checkResultCreated'> {
  const checkId = crypto.randomUUID();
  return { type: 'checkResultCreated', accountId, checkId, groupId: null, tags: ['t'], result: { id: crypto.randomUUID(), checkId } };
}
const sessionEvent = (accountId: string): EventOf<'testSessionUpdated'> => {
  const id = crypto.randomUUID();
  return { type: 'testSessionUpdated', accountId, testSessionId: id, testSession: { id, status: 'RUNNING' } };
};

describe('GET /v1/events/stream', () => {
  let s: TestServer;
  const auth = (c: TestServer['a']) => ({ authorization: `Bearer ${c.apiKey}`, 'x-lookout-account': c.accountId });
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  it('streams the caller\'s events as Server-Sent Events, never another account\'s', async () => {
    const a = await openStream(`${s.url}/v1/events/stream`, auth(s.a));
    const b = await openStream(`${s.url}/v1/events/stream`, auth(s.b));
    expect(a.status).toBe(200);
    expect(a.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(a.headers.get('cache-control')).toBe('no-cache, no-transform');
    const forA = resultEvent(s.a.accountId);
    const forB = resultEvent(s.b.accountId);
    await s.lookout.bus.publish(forA);
    await s.lookout.bus.publish(forB);
    expect(await a.next()).toEqual({ id: '1', event: 'checkResultCreated', data: forA });
    // b's own event was published after a's: had a's reached b, it would have come first.
    expect(await b.next()).toEqual({ id: '1', event: 'checkResultCreated', data: forB });
    await Promise.all([a.cancel(), b.cancel()]);
  });

  it.each([
    ['comma-separated', '?types=testSessionUpdated,alertNotified'],
    ['repeated', '?types=testSessionUpdated&types=alertNotified'],
    ['axios style', '?types[]=testSessionUpdated&types[]=alertNotified'],
  ])('narrows the stream to the types given %s', async (_name, query) => {
    const stream = await openStream(`${s.url}/v1/events/stream${query}`, auth(s.a));
    const session = sessionEvent(s.a.accountId);
    await s.lookout.bus.publish(resultEvent(s.a.accountId));
    await s.lookout.bus.publish(session);
    expect(await stream.next()).toEqual({ id: '1', event: 'testSessionUpdated', data: session });
    await stream.cancel();
  });

  it.each([
    ['an unknown event type', '?types=checkDeleted', auth, 400, 'types.0'],
    ['an empty type list', '?types=', auth, 400, 'types'],
    ['a repeated type beyond the four', '?types=alertNotified,alertNotified,alertNotified,alertNotified,alertNotified', auth, 400, 'types'],
    ['no API key', '', () => ({}), 401, undefined],
    ['an unknown API key', '', () => ({ authorization: 'Bearer wrong-key' }), 401, undefined],
    ['another account\'s header', '', (c: TestServer['a']) => ({ authorization: `Bearer ${c.apiKey}`, 'x-lookout-account': s.b.accountId }), 403, undefined],
  ] as const)('refuses %s', async (_name, query, headers, status, key) => {
    const res = await fetch(`${s.url}/v1/events/stream${query}`, { headers: headers(s.a) });
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toContain('application/json');
    const body = await res.json();
    expect(body).toMatchObject({ statusCode: status, error: expect.any(String), message: expect.any(String) });
    if (key) expect(body.validation.keys).toContain(key);
  });

  it('appears in the OpenAPI document', async () => {
    const doc = (await s.raw('GET', '/openapi.json')).body;
    expect(doc.paths['/v1/events/stream'].get.summary).toContain('Server-Sent Events');
  });
});

describe('the event stream on shutdown', () => {
  it('ends open streams when the server closes', async () => {
    const s = await startTestServer();
    const stream = await openStream(`${s.url}/v1/events/stream`, { authorization: `Bearer ${s.a.apiKey}` });
    await s.close();
    await expect(stream.ended).resolves.toBeUndefined();
  });
});

describe('createRemoteEventSource', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  it('delivers the account\'s events of the subscribed types, once the stream is live', async () => {
    const source = createRemoteEventSource(s.url, { authorization: `Bearer ${s.a.apiKey}`, 'x-lookout-account': s.a.accountId });
    const got: LookoutEvent[] = [];
    let arrived!: () => void;
    const done = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    source.subscribe('testSessionUpdated', (e) => {
      got.push(e);
      arrived();
    });
    await source.ready;
    const session = sessionEvent(s.a.accountId);
    await s.lookout.bus.publish(sessionEvent(s.b.accountId));
    await s.lookout.bus.publish(resultEvent(s.a.accountId));
    await s.lookout.bus.publish(session);
    await done;
    expect(got).toEqual([session]);
    source.close();
  });

  it('stops for good and reports it when the service refuses the credentials', async () => {
    let revoked = false;
    const source = createRemoteEventSource(s.url, { authorization: 'Bearer wrong-key' }, { onRevoked: () => {
      revoked = true;
    } });
    await expect(source.ready).rejects.toThrow('refused');
    expect(revoked).toBe(true);
    source.close();
  });

  it('reconnects after the stream drops, and is live again before it delivers', async () => {
    // A relay in front of the service that cuts the first stream after its first bytes.
    let cut = 0;
    let reconnected!: () => void;
    const again = new Promise<void>((resolve) => {
      reconnected = resolve;
    });
    const relay: Server = createServer(async (req, res) => {
      const upstream = await fetch(s.url + req.url!, { headers: { authorization: String(req.headers.authorization) } });
      res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'text/plain' });
      const reader = upstream.body!.getReader();
      const first = cut++ === 0;
      if (!first) reconnected();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return void res.end();
        res.write(value);
        if (first) {
          await reader.cancel();
          return void res.destroy();
        }
      }
    });
    await new Promise<void>((r) => relay.listen(0, '127.0.0.1', r));
    const source = createRemoteEventSource(`http://127.0.0.1:${(relay.address() as AddressInfo).port}`, { authorization: `Bearer ${s.a.apiKey}` }, { retryDelaysMs: [0] });
    const got: LookoutEvent[] = [];
    let arrived!: () => void;
    const done = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    source.subscribe('checkResultCreated', (e) => {
      got.push(e);
      arrived();
    });
    await source.ready;
    await again;
    // The relayed stream is live once the service has sent its first comment through it.
    const event = resultEvent(s.a.accountId);
    for (;;) {
      await s.lookout.bus.publish(event);
      if (await Promise.race([done.then(() => true), new Promise<boolean>((r) => setImmediate(() => r(false)))])) break;
    }
    expect(got[0]).toEqual(event);
    source.close();
    relay.closeAllConnections();
    relay.close();
  });
});
