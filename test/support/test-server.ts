import { EventEmitter } from 'node:events';
import { createServer } from 'node:net';
import type { IncomingMessage } from 'node:http';
import { pino } from 'pino';
import { createLookout, type Lookout } from '../../src/main.js';
import type { StoreOptions } from '../../src/store/create-store.js';
import { createAccountWithKey } from '../../src/service/bootstrap.js';
import type { Backend } from './backends.js';
import { BACKENDS } from './backends.js';
import { createContractValidator, type ContractValidator } from './contract-validator.js';

/** An HTTP answer as tests look at it. */
export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** A client bound to one account's key. */
export interface TestClient {
  accountId: string;
  apiKey: string;
  request<T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<TestResponse<T>>;
}

/** A real Lookout listening on loopback (port 0), with two accounts to test isolation. */
export interface TestServer {
  url: string;
  lookout: Lookout;
  /** Where the server keeps its data: a second process of the same installation opens these. */
  storeOptions: StoreOptions;
  /** The bootstrap account. */
  a: TestClient;
  /** A second, unrelated account. */
  b: TestClient;
  /**
   * Calls `listener` with each request the app takes past authentication and rate limits, over HTTP
   * or in-process (the GraphQL layer's REST calls); returns the function that stops it.
   */
  onRequest(listener: (req: IncomingMessage) => void): () => void;
  /** A request with arbitrary headers and no default auth. */
  raw(method: string, path: string, init?: { body?: string; headers?: Record<string, string> }): Promise<TestResponse>;
  close(): Promise<void>;
}

async function toResponse(res: Response): Promise<TestResponse> {
  const text = await res.text();
  let body: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('json') && text) body = JSON.parse(text);
  return { status: res.status, headers: res.headers, body, text };
}

/** The answer, once `contract` (when given) has checked it against the published document. */
async function checked(contract: ContractValidator | undefined, method: string, path: string, res: Response): Promise<TestResponse> {
  const response = await toResponse(res);
  if (contract && method.toUpperCase() !== 'HEAD') {
    contract.check({ method, path, status: response.status, contentType: response.headers.get('content-type') ?? '', body: response.body });
  }
  return response;
}

/** Options of startTestServer. */
export interface TestServerOptions {
  backend?: Backend;
  config?: Record<string, unknown>;
  /**
   * Whether every answer `request()` and `raw()` receive is checked against the OpenAPI document the
   * server publishes (default true): a body or status the contract does not declare fails the test.
   */
  contract?: boolean;
}

/**
 * How the GraphQL layer of test servers reaches their REST API (`LOOKOUT_TEST_GRAPHQL_TRANSPORT`):
 * `in-process` (the default, as in production) or `http`, over sockets to the server's own port as
 * GRAPHQL_BACKEND_URL would. vitest.config.ts runs the GraphQL suites once with each.
 */
export function graphqlTransport(value = process.env.LOOKOUT_TEST_GRAPHQL_TRANSPORT): 'in-process' | 'http' {
  if (value === undefined || value === '' || value === 'in-process') return 'in-process';
  if (value === 'http') return 'http';
  throw new Error(`LOOKOUT_TEST_GRAPHQL_TRANSPORT must be in-process or http, not ${value}`);
}

/** A loopback port nothing listens on right now (the server's own URL must be known before it starts). */
export async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => probe.once('listening', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * Starts a server on `backend` (PGlite in memory by default). The scheduler is off unless
 * `config.runnerEnabled` is set: test data names hosts no test may reach.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const backend = options.backend ?? BACKENDS[0]!;
  const overHttp = graphqlTransport() === 'http' && options.config?.graphqlBackendUrl === undefined && options.config?.port === undefined;
  for (let attempt = 1; ; attempt++) {
    const port = overHttp ? await freePort() : 0;
    const storeOptions = backend.options();
    const lookout = await createLookout({
      config: {
        port, host: '127.0.0.1', rateLimitMax: 600, runnerEnabled: false, bootstrapAccountId: undefined, bootstrapApiKey: undefined,
        ...(overHttp ? { graphqlBackendUrl: `http://127.0.0.1:${port}` } : {}),
        ...options.config,
      },
      storeOptions,
      logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    });
    const requests = new EventEmitter<{ request: [IncomingMessage] }>();
    lookout.app.addHook('onRequest', (req, _reply, done) => {
      requests.emit('request', req.raw);
      done();
    });
    try {
      return await started(lookout, storeOptions, backend, requests, options);
    } catch (err) {
      await lookout.close();
      await backend.cleanup(storeOptions);
      // Another process may take the free port before this server listens on it.
      if (!(overHttp && (err as { code?: string }).code === 'EADDRINUSE' && attempt < 5)) throw err;
    }
  }
}

async function started(lookout: Lookout, storeOptions: StoreOptions, backend: Backend, requests: EventEmitter<{ request: [IncomingMessage] }>, options: TestServerOptions): Promise<TestServer> {
  const url = (await lookout.listen()).replace('[::1]', '127.0.0.1');
  const second = await createAccountWithKey(lookout.store, { name: 'Other account' });
  const contract = options.contract === false ? undefined : createContractValidator(await (await fetch(`${url}/openapi.json`)).text());
  const raw = async (method: string, path: string, init: { body?: string; headers?: Record<string, string> } = {}) =>
    checked(contract, method, path, await fetch(url + path, { method, body: init.body, headers: init.headers }));
  const client = (accountId: string, apiKey: string): TestClient => ({
    accountId,
    apiKey,
    async request(method, path, body, headers = {}) {
      const h: Record<string, string> = { authorization: `Bearer ${apiKey}`, 'x-lookout-account': accountId, ...headers };
      if (body !== undefined) h['content-type'] ??= 'application/json';
      return checked(contract, method, path, await fetch(url + path, { method, headers: h, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) }));
    },
  });
  return {
    url,
    lookout,
    storeOptions,
    a: client(lookout.bootstrap.accountId, lookout.bootstrap.apiKey!),
    b: client(second.accountId, second.apiKey),
    onRequest(listener) {
      requests.on('request', listener);
      return () => requests.off('request', listener);
    },
    raw,
    async close() {
      await lookout.close();
      await backend.cleanup(storeOptions);
    },
  };
}
