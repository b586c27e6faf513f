import { once } from 'node:events';
import { buildSchema, GraphQLError } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createDocumentCache } from '../../src/graphql/subscriptions/document-cache.js';
import { SharedResult } from '../../src/graphql/subscriptions/subscription-fan-out.js';
import { startSubscriptionLayer, type SubscriptionLayer } from '../support/subscription-layer.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const schema = buildSchema('type Query { hello(name: String): String }');

describe('the subscription document cache', () => {
  it('parses an operation text once and hands every socket sending it the same document and string', () => {
    const cache = createDocumentCache(schema);
    expect(cache.intern('{ hello }')).toBe('{ hello }');
    const first = cache.parse('{ hello }');
    // A copy built at run time, as each socket's message is: the cache answers the first one's objects.
    const again = ['{', 'hello', '}'].join(' ');
    expect(cache.parse(again)).toBe(first);
    expect(cache.intern(again)).toBe(first.loc?.source.body);
    expect(cache.print(first)).toBe('{\n  hello\n}');
  });

  it('validates a cached document once and answers the same errors after', () => {
    const cache = createDocumentCache(schema);
    const doc = cache.parse('{ goodbye }');
    const errors = cache.validate(schema, doc);
    expect(errors.map((e) => e.message)).toEqual(['Cannot query field "goodbye" on type "Query".']);
    expect(cache.validate(schema, doc)).toBe(errors);
  });

  it('throws the syntax error of a malformed operation, as graphql-js parse does', () => {
    const cache = createDocumentCache(schema);
    expect(() => cache.parse('{ hello ')).toThrow(GraphQLError);
  });

  it('keeps the most recently used operations and forgets the oldest beyond its size', () => {
    const cache = createDocumentCache(schema, {}, 2);
    const a = cache.parse('query A { hello }');
    cache.parse('query B { hello }');
    cache.parse('query A { hello }');
    cache.parse('query C { hello }');
    expect(cache.parse('query A { hello }')).toBe(a);
    const b = cache.parse('query B { hello }');
    expect(cache.parse('query B { hello }')).toBe(b);
  });
});

describe('a shared subscription result', () => {
  it('builds each next message once per envelope, as the payload spliced into graphql-ws\'s envelope', () => {
    const shared = new SharedResult('{"data":{"x":1}}');
    const one = shared.message('{"id":"1","type":"next",');
    expect(one.toString()).toBe('{"id":"1","type":"next","payload":{"data":{"x":1}}}');
    expect(shared.message('{"id":"1","type":"next",')).toBe(one);
    expect(shared.message('{"id":"2","type":"next",').toString()).toBe('{"id":"2","type":"next","payload":{"data":{"x":1}}}');
  });
});

describe('graphql-ws keep-alive', () => {
  let s: TestServer;
  let layer: SubscriptionLayer;

  beforeAll(async () => {
    s = await startTestServer();
    layer = await startSubscriptionLayer(s, { keepAliveMs: 160 });
  });
  afterAll(async () => {
    await layer?.close();
    await s?.close();
  });

  async function connected(autoPong: boolean): Promise<WebSocket> {
    const ws = new WebSocket(`${layer.url.replace(/^http/, 'ws')}/graphql`, ['graphql-transport-ws'], { autoPong });
    await once(ws, 'open');
    ws.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${s.a.apiKey}`, accountId: s.a.accountId } }));
    await once(ws, 'message');
    return ws;
  }

  it('drops a socket that stops answering pings and keeps one that answers them', async () => {
    const healthy = await connected(true);
    const silent = await connected(false);
    let pingsAnswered = 0;
    healthy.on('ping', () => pingsAnswered++);
    const [code] = await once(silent, 'close');
    // Dropped without a close frame: the server terminated the connection.
    expect(code).toBe(1006);
    // The healthy socket has been through the same sweeps, answered, and is still open.
    await once(healthy, 'ping');
    expect(pingsAnswered).toBeGreaterThanOrEqual(1);
    expect(healthy.readyState).toBe(WebSocket.OPEN);
    healthy.close();
  });
});
