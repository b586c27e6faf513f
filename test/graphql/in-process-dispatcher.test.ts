import { once } from 'node:events';
import { createServer } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { Dispatcher, errors, fetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInProcessDispatcher } from '../../src/graphql/create-in-process-dispatcher.js';
import { RestError } from '../../src/graphql/errors.js';
import { createRestClient } from '../../src/graphql/rest-client.js';

const BIG = 'x'.repeat(1024 * 1024);

/** A small app with what a REST route can do: headers, bodies, errors, answers that wait. */
async function smallApp(): Promise<{ app: FastifyInstance; waiting: EventTarget }> {
  const app = Fastify();
  const waiting = new EventTarget();
  app.get('/hello', async (_req, reply) => {
    reply.header('x-answer', '42').header('set-cookie', ['a=1', 'b=2']);
    return { hello: 'world' };
  });
  app.post('/echo', async (req) => ({ body: req.body, contentType: req.headers['content-type'] }));
  app.get('/boom', async () => {
    throw new Error('boom');
  });
  app.get('/who', async (req) => ({ ip: req.ip, remoteAddress: req.socket.remoteAddress, host: req.host }));
  app.get('/big', async (_req, reply) => reply.type('text/plain').send(BIG));
  app.get('/wait', async () => {
    waiting.dispatchEvent(new Event('entered'));
    await new Promise(() => {});
  });
  await app.ready();
  return { app, waiting };
}

/** A composed dispatcher: its handlers speak undici's controller API (onRequestStart … onResponseEnd). */
const throughInterceptor = (d: Dispatcher) => d.compose((dispatch) => (opts, handler) => dispatch(opts, handler));

describe('createInProcessDispatcher', () => {
  let app: FastifyInstance;
  let waiting: EventTarget;
  let dispatcher: Dispatcher;

  beforeAll(async () => {
    ({ app, waiting } = await smallApp());
    dispatcher = createInProcessDispatcher(app);
  });
  afterAll(async () => {
    await dispatcher.close();
    await app.close();
  });

  it.each([
    ['request() (legacy handler callbacks)', (d: Dispatcher) => d],
    ['a composed dispatcher (controller callbacks)', throughInterceptor],
  ])('answers with the status, headers and body the app sends, through %s', async (_name, wrap) => {
    const res = await wrap(dispatcher).request({ method: 'GET', path: '/hello' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['x-answer']).toBe('42');
    expect(res.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(await res.body.json()).toEqual({ hello: 'world' });
  });

  it.each([
    ['a string', JSON.stringify({ n: 1 })],
    ['a Buffer', Buffer.from(JSON.stringify({ n: 1 }))],
    ['a Uint8Array', new TextEncoder().encode(JSON.stringify({ n: 1 }))],
  ])('hands a POST body given as %s to the route, parsed by its content type', async (_name, body) => {
    const res = await dispatcher.request({ method: 'POST', path: '/echo', headers: { 'content-type': 'application/json' }, body });
    expect(await res.body.json()).toEqual({ body: { n: 1 }, contentType: 'application/json' });
  });

  it('answers a route that throws with the 500 Fastify sends for it', async () => {
    const res = await dispatcher.request({ method: 'GET', path: '/boom' });
    expect(res.statusCode).toBe(500);
    expect(await res.body.json()).toEqual({ statusCode: 500, error: 'Internal Server Error', message: 'boom' });
  });

  it('presents each request as coming from loopback, to a host the service counts as its own', async () => {
    const res = await dispatcher.request({ method: 'GET', path: '/who' });
    expect(await res.body.json()).toEqual({ ip: '127.0.0.1', remoteAddress: '127.0.0.1', host: '127.0.0.1' });
  });

  it.each([
    ['request()', (d: Dispatcher) => d],
    ['a composed dispatcher', throughInterceptor],
  ])('delivers a large body whole through %s, with the pauses its reader asks for', async (_name, wrap) => {
    const res = await wrap(dispatcher).request({ method: 'GET', path: '/big', highWaterMark: 1024 });
    expect(await res.body.text()).toBe(BIG);
  });

  it('serves fetch(), which sends its headers as a list and its body as a stream', async () => {
    const res = await fetch('http://in-process/echo', { dispatcher, method: 'POST', headers: [['content-type', 'application/json']], body: JSON.stringify([1, 2]) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ body: [1, 2], contentType: 'application/json' });
  });

  it('ends a request whose signal aborts with the abort reason, leaving nothing in flight', async () => {
    const own = createInProcessDispatcher(app);
    const controller = new AbortController();
    const entered = once(waiting, 'entered');
    const pending = own.request({ method: 'GET', path: '/wait', signal: controller.signal });
    await entered;
    controller.abort(new Error('caller gave up'));
    await expect(pending).rejects.toThrow('caller gave up');
    // close() waits for the requests in flight: the aborted one is not among them.
    await own.close();
  });

  it('refuses a request whose signal has already aborted without reaching the app', async () => {
    const res = dispatcher.request({ method: 'GET', path: '/boom', signal: AbortSignal.abort() });
    await expect(res).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('fails the requests in flight when destroyed, and every request after', async () => {
    const own = createInProcessDispatcher(app);
    const entered = once(waiting, 'entered');
    const pending = own.request({ method: 'GET', path: '/wait' });
    await entered;
    await own.destroy();
    await expect(pending).rejects.toBeInstanceOf(errors.ClientDestroyedError);
    await expect(own.request({ method: 'GET', path: '/hello' })).rejects.toBeInstanceOf(errors.ClientClosedError);
  });
});

describe('the REST client over the in-process dispatcher', () => {
  it('answers as over HTTP: the status and parsed body of a REST answer', async () => {
    const { app } = await smallApp();
    const client = createRestClient({ backend: createInProcessDispatcher(app), budget: 5 });
    try {
      const res = await client.session({}).get<{ hello: string }>('/hello');
      expect(res).toMatchObject({ status: 200, body: { hello: 'world' } });
      await expect(client.session({}).get('/boom')).rejects.toMatchObject({ status: 500 });
    } finally {
      await client.close();
      await app.close();
    }
  });

  it.each([
    ['over HTTP to a port nothing listens on', async () => {
      const probe = createServer().listen(0, '127.0.0.1');
      await once(probe, 'listening');
      const { port } = probe.address() as { port: number };
      await new Promise((resolve) => probe.close(resolve));
      return { backend: () => `http://127.0.0.1:${port}`, done: async () => {} };
    }],
    ['in-process to an app that has closed', async () => {
      const { app } = await smallApp();
      await app.close();
      return { backend: createInProcessDispatcher(app), done: async () => {} };
    }],
  ])('turns a backend it cannot reach (%s) into RestError 0', async (_name, make) => {
    const { backend, done } = await make();
    const client = createRestClient({ backend, budget: 5 });
    try {
      const failure = await client.session({}).get('/hello').catch((err: unknown) => err);
      expect(failure).toBeInstanceOf(RestError);
      expect((failure as RestError).status).toBe(0);
    } finally {
      await client.close();
      await done();
    }
  });
});
