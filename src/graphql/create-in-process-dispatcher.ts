import { isIP } from 'node:net';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { Dispatcher, errors } from 'undici';

type Handler = Dispatcher.DispatchHandler;
type Headers = Record<string, string | string[] | undefined>;

/** What a dispatch reports to its handler, whichever of undici's two handler APIs the handler speaks. */
interface Sink {
  start(abort: (reason?: Error) => void): void;
  /** False: the handler asks to pause until `resume` is called. */
  headers(statusCode: number, headers: Headers, statusMessage: string, resume: () => void): boolean;
  data(chunk: Buffer): boolean;
  end(trailers: Headers): void;
  error(err: Error): void;
}

function rawHeaders(headers: Headers): Buffer[] {
  const raw: Buffer[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) raw.push(Buffer.from(name, 'latin1'), Buffer.from(String(v), 'latin1'));
  }
  return raw;
}

/** The legacy callbacks (onConnect, onHeaders, onData, onComplete, onError), which `request()` passes. */
function legacySink(handler: Handler): Sink {
  return {
    start: (abort) => handler.onConnect?.(abort),
    headers: (status, headers, message, resume) => handler.onHeaders?.(status, rawHeaders(headers), resume, message) !== false,
    data: (chunk) => handler.onData?.(chunk) !== false,
    end: (trailers) => handler.onComplete?.(rawHeaders(trailers) as unknown as string[]),
    error: (err) => {
      if (!handler.onError) throw err;
      handler.onError(err);
    },
  };
}

/** The controller API (onRequestStart … onResponseError), which interceptors and composed dispatchers pass. */
function controllerSink(handler: Handler): Sink {
  let abortRequest: (reason?: Error) => void = () => {};
  let resumeResponse = () => {};
  const controller = {
    aborted: false,
    paused: false,
    reason: null as Error | null,
    rawHeaders: null as Headers | null,
    rawTrailers: null as Headers | null,
    abort(reason: Error) {
      if (controller.aborted) return;
      controller.aborted = true;
      controller.reason = reason;
      abortRequest(reason);
    },
    pause() {
      controller.paused = true;
    },
    resume() {
      if (!controller.paused) return;
      controller.paused = false;
      resumeResponse();
    },
  };
  return {
    start(abort) {
      abortRequest = abort;
      handler.onRequestStart?.(controller, null);
    },
    headers(status, headers, message, resume) {
      resumeResponse = resume;
      controller.rawHeaders = headers;
      handler.onResponseStart?.(controller, status, headers as never, message);
      return !controller.paused;
    },
    data(chunk) {
      handler.onResponseData?.(controller, chunk);
      return !controller.paused;
    },
    end(trailers) {
      controller.rawTrailers = trailers;
      handler.onResponseEnd?.(controller, trailers as never);
    },
    error(err) {
      if (!handler.onResponseError) throw new errors.InvalidArgumentError('invalid onResponseError method');
      handler.onResponseError(controller, err);
    },
  };
}

/** undici's header forms (object, flat array, iterable of pairs) as the object light-my-request takes. */
function headerObject(headers: Dispatcher.DispatchOptions['headers']): Headers | undefined {
  if (!headers) return undefined;
  if (Array.isArray(headers)) {
    const out: Record<string, string | string[]> = {};
    for (let i = 0; i < headers.length; i += 2) {
      const name = String(headers[i]);
      const value = String(headers[i + 1]);
      const seen = out[name];
      out[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
    }
    return out;
  }
  if (typeof (headers as Iterable<unknown>)[Symbol.iterator] === 'function') {
    return Object.fromEntries(headers as Iterable<[string, string | string[] | undefined]>);
  }
  return headers as Headers;
}

/** A request body as light-my-request takes it: strings, Buffers and streams as they are. */
function payloadOf(body: unknown): string | Buffer | Readable | undefined {
  if (body === null || body === undefined) return undefined;
  if (typeof body === 'string' || Buffer.isBuffer(body) || body instanceof Readable) return body;
  // A view on the same memory, not a copy.
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (typeof (body as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function' || typeof (body as Iterable<unknown>)[Symbol.iterator] === 'function') {
    return Readable.from(body as AsyncIterable<unknown>, { objectMode: false });
  }
  throw new errors.InvalidArgumentError('body must be a string, a Buffer, a Uint8Array or a stream');
}

/** The part of a light-my-request response with `payloadAsStream`. */
interface InjectedResponse {
  statusCode: number;
  statusMessage: string;
  headers: Headers;
  trailers: Headers;
  stream(): Readable;
}

/**
 * The header the layer's REST client names its caller's address with, for an in-process request:
 * the dispatcher takes it off and serves the request as coming from that address (the audit log's
 * `ip`, per-address limits), as a trusted proxy's X-Forwarded-For would over HTTP. It never reaches
 * the app: only the layer's own client dispatches here, and it never forwards this header from a caller.
 */
export const CLIENT_ADDRESS_HEADER = 'x-lookout-client-address';

/** The headers without CLIENT_ADDRESS_HEADER, and its value when it is an IP address. */
function takeClientAddress(headers: Headers | undefined): { headers: Headers | undefined; address: string | undefined } {
  if (!headers || !(CLIENT_ADDRESS_HEADER in headers)) return { headers, address: undefined };
  const { [CLIENT_ADDRESS_HEADER]: named, ...rest } = headers;
  const address = typeof named === 'string' && isIP(named) !== 0 ? named : undefined;
  return { headers: rest, address };
}

/**
 * An undici Dispatcher that serves each request with the Fastify app in this process (`inject`):
 * no socket, yet the same onRequest/preHandler hooks, authentication, rate limits, validation and
 * serializers as a request over HTTP, coming from loopback (127.0.0.1). `request()`, `stream()` and
 * composed interceptors work on it as on a Pool. A request the app cannot take (closing) fails as a
 * refused connection would, through the handler's error callback.
 */
export class InProcessDispatcher extends Dispatcher {
  readonly #app: FastifyInstance;
  readonly #inFlight = new Set<(reason: Error) => void>();
  #closed = false;
  #idle: (() => void) | undefined;

  constructor(app: FastifyInstance) {
    super();
    this.#app = app;
  }

  override dispatch(opts: Dispatcher.DispatchOptions, handler: Handler): boolean {
    if (!handler || typeof handler !== 'object') throw new errors.InvalidArgumentError('handler must be an object');
    const sink = handler.onRequestStart ? controllerSink(handler) : legacySink(handler);
    let payload;
    try {
      if (this.#closed) throw new errors.ClientClosedError();
      if (opts.upgrade || opts.method === 'CONNECT') throw new errors.NotSupportedError('upgrades are not served in-process');
      payload = payloadOf(opts.body);
    } catch (err) {
      sink.error(err as Error);
      return false;
    }

    let done = false;
    let body: Readable | undefined;
    const aborter = new AbortController();
    const finish = () => {
      done = true;
      this.#inFlight.delete(fail);
      if (this.#inFlight.size === 0) this.#idle?.();
    };
    const fail = (err: Error) => {
      if (done) return;
      finish();
      aborter.abort(err);
      body?.destroy();
      sink.error(err);
    };
    this.#inFlight.add(fail);
    sink.start((reason) => fail(reason ?? new errors.RequestAbortedError()));
    if (done) return true;

    const { headers, address } = takeClientAddress(headerObject(opts.headers));
    const injectOptions = {
      method: opts.method,
      url: opts.path,
      query: opts.query,
      headers,
      payload,
      // As over HTTP from the layer (loopback, a host the service counts as its own: no custom
      // domain), from the caller's address when the layer named it.
      remoteAddress: address ?? '127.0.0.1',
      authority: '127.0.0.1',
      signal: aborter.signal,
      // The body reaches the handler as the Buffers the app wrote, not joined and decoded again.
      payloadAsStream: true,
      validate: false,
    };
    this.#app.inject(injectOptions as never, ((err: Error | null, res: InjectedResponse | undefined) => {
      if (done) {
        if (res) res.stream().destroy();
        return;
      }
      if (err || !res) return fail(err ?? new errors.SocketError('no response'));
      let stream: Readable;
      try {
        stream = body = res.stream();
        stream.on('error', fail);
        if (!sink.headers(res.statusCode, res.headers, res.statusMessage, () => stream.resume())) stream.pause();
      } catch (thrown) {
        return fail(thrown as Error);
      }
      if (done) return;
      stream.on('data', (chunk: Buffer) => {
        if (done) return;
        try {
          if (!sink.data(chunk)) stream.pause();
        } catch (thrown) {
          fail(thrown as Error);
        }
      });
      stream.on('end', () => {
        if (done) return;
        finish();
        sink.end(res.trailers);
      });
    }) as never);
    return true;
  }

  /** Resolves once the requests in flight have finished; later dispatches fail with ClientClosedError. */
  override close(): Promise<void>;
  override close(callback: () => void): void;
  override close(callback?: () => void): Promise<void> | void {
    this.#closed = true;
    const idle = this.#inFlight.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => (this.#idle = resolve));
    if (!callback) return idle;
    void idle.then(callback);
  }

  /** Fails the requests in flight with `err` (ClientDestroyedError by default); later dispatches fail too. */
  override destroy(): Promise<void>;
  override destroy(err: Error | null): Promise<void>;
  override destroy(callback: () => void): void;
  override destroy(err: Error | null, callback: () => void): void;
  override destroy(errOrCallback?: Error | null | (() => void), callback?: () => void): Promise<void> | void {
    const cb = typeof errOrCallback === 'function' ? errOrCallback : callback;
    const err = (typeof errOrCallback === 'function' ? null : errOrCallback) ?? new errors.ClientDestroyedError();
    this.#closed = true;
    for (const fail of [...this.#inFlight]) fail(err);
    if (!cb) return Promise.resolve();
    queueMicrotask(cb);
  }
}

/** The in-process dispatcher of the GraphQL layer when its REST backend is this process. */
export function createInProcessDispatcher(app: FastifyInstance): InProcessDispatcher {
  return new InProcessDispatcher(app);
}
