import { EventEmitter } from 'node:events';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { getOperationAST, GraphQLError, subscribe as graphqlSubscribe, type DocumentNode, type ExecutionArgs, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { CloseCode, makeServer, handleProtocols } from 'graphql-ws';
import type { Logger } from 'pino';
import { WebSocketServer, type WebSocket } from 'ws';
import { DEFAULT_REQUEST_SIZE_LIMITS, maxBodyBytes, requestSizeError, type RequestSizeLimits } from '../request-size-error.js';
import type { AccountEventSources, AccountEventsLease } from './account-event-source.js';
import { connectionHeaders, type ConnectionAuthenticator } from './create-rest-authenticator.js';
import { createDocumentCache } from './document-cache.js';
import { DEFAULT_DOCUMENT_LIMITS, documentLimitError, tooManyTokensError, type DocumentLimits } from '../document-limit-error.js';
import { createEventContexts } from './create-event-contexts.js';
import { subscribePerEvent } from './subscribe-per-event.js';
import { createSubscriptionFanOut, SharedResult } from './subscription-fan-out.js';
import type { SubscriptionContext } from './subscription-resolvers.js';

/**
 * Close code of a socket whose queue of unsent messages overflowed ("Slow consumer"). graphql-ws
 * leaves 4008 unused (its own codes are 4004, 4005, 4400, 4401, 4403, 4406, 4408, 4409, 4429,
 * 4500 and 4504); the client should reconnect and resubscribe.
 */
export const SLOW_CONSUMER_CLOSE_CODE = 4008;

/** Options of the graphql-ws server. */
export interface SubscriptionServerOptions {
  /** The HTTP server the REST API (and the GraphQL HTTP endpoint) listens on. */
  server: Server;
  /** Executable schema with the `Subscription` resolvers attached (see withSubscriptionResolvers). */
  schema: GraphQLSchema;
  eventSources: AccountEventSources;
  authenticate: ConnectionAuthenticator;
  logger: Logger;
  /** Path upgraded to WebSocket; default `/graphql`. */
  path?: string;
  /** Messages a socket may have queued and unsent before it is closed as a slow consumer; default 1,000. */
  maxQueuedMessages?: number;
  /** Bytes of payload a socket may have queued and unsent; default 1 MiB. */
  maxQueuedBytes?: number;
  /**
   * Context of queries and mutations sent over a socket (the HTTP endpoint's context factory, given
   * the socket's credentials as headers). Subscriptions run with their own context; each event they
   * deliver executes in one made by this factory too, shared per event and account (its loaders
   * resolve the events' links into the graph). Without it, those links answer BACKEND_UNAVAILABLE.
   */
  operationContext?: (headers: Record<string, string>) => object;
  /** Subscriptions one socket may run at once; more are answered with an error; default 100. */
  maxSubscriptionsPerSocket?: number;
  /** Milliseconds a socket has to send `connection_init`; default 3,000. */
  connectionInitWaitTimeout?: number;
  /**
   * Checked once an operation sent over a socket parses and validates, before it runs: an error
   * refuses it (the HTTP endpoint's depth, alias and cost limits).
   */
  checkOperation?: (document: DocumentNode, operationName: string | null | undefined, variables: Record<string, unknown> | null | undefined) => GraphQLError | null;
  /** Milliseconds between keep-alive pings (a socket missing a pong for as long is dropped); default 12,000. */
  keepAliveMs?: number;
  /**
   * Largest document and variables of a `subscribe` (the HTTP endpoint's limits): larger ones are
   * answered with an `error` message for that operation before the document is parsed. A message
   * larger than both and some slack closes the socket with 1009 (WebSocket "Message Too Big").
   */
  sizeLimits?: RequestSizeLimits;
  /**
   * Limits on a `subscribe`'s document (the HTTP endpoint's): past the token limit the parser stops;
   * past the others the operation is answered with an `error` message before it is validated.
   */
  documentLimits?: DocumentLimits;
}

/** What a running subscription server offers its owner. */
export interface SubscriptionServer {
  /**
   * Instrumentation: `subscribed` (key) once a subscription's source is live, `execute` (key,
   * subscribers) per shared execution, `slowConsumer` (accountId) when a socket is closed with 4008.
   */
  monitor: EventEmitter;
  stats(): { sockets: number; sharedSubscriptions: number; subscribers: number; executions: number };
  /**
   * Closes with 4403 ("Forbidden") every socket whose `connection_init` credentials (as REST headers)
   * pass `test`: a revoked key's sockets end at once. Answers how many it closed.
   */
  closeWhere(test: (headers: Readonly<Record<string, string>>) => boolean): number;
  /**
   * Asks `accept` again about every open socket (of `accountId`, when given) and closes with 4403
   * those it now refuses: a member who left, or a session that ended, stops receiving at once.
   * Answers how many it closed.
   */
  recheck(accept: (headers: Readonly<Record<string, string>>) => Promise<boolean>, accountId?: string | null): Promise<number>;
  /** Closes every socket (1001 "Going away") and stops accepting upgrades. */
  close(): Promise<void>;
}

/**
 * Per-socket state, in graphql-ws's `ctx.extra`. Kept small (no upgrade request, no timers): an
 * idle subscribed socket should cost a few KB, not tens.
 */
interface SocketState {
  socket: WebSocket;
  accountId: string | null;
  /** The credentials of `connection_init`, as REST headers. */
  headers: Record<string, string>;
  /** The upgrade request's Cookie header (a console session proves it with `csrfToken` in `connection_init`). */
  cookie: string | undefined;
  lease: AccountEventsLease | null;
  /** Withdraws the socket's credentials from those events of its account are executed with. */
  forget: (() => void) | null;
  queuedMessages: number;
  queuedBytes: number;
  closing: boolean;
  /** Whether the socket answered the last keep-alive ping. */
  alive: boolean;
}

/** Keep-alive slices: each socket is pinged in one of them, so pings are spread over the period. */
const KEEP_ALIVE_SLICES = 16;

/** A refusal as a socket's `error` message carries it: there is no HTTP status to set. */
function withoutHttp(error: GraphQLError): GraphQLError {
  const { http: _http, ...extensions } = error.extensions;
  return new GraphQLError(error.message, { extensions });
}

function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${stableStringify((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * graphql-ws (protocol `graphql-transport-ws`) on the API's own HTTP server and path. Sockets
 * authenticate in `connection_init` (`{authorization: "Bearer <key>", accountId}`), checked by the
 * REST service; a refused key closes the socket with 4403. Each socket sees only its account's
 * events. Identical subscriptions (same account, normalized document, operation and variables)
 * share one source, one execution and one serialization per event. Each socket has a bounded queue
 * of unsent messages; overflowing it closes the socket with SLOW_CONSUMER_CLOSE_CODE.
 * Long by design: graphql-ws's server options are one object of callbacks over the same socket, source-sharing and queue state; the rules (limits, keys, serialization) live in their own files.
 */
export function createSubscriptionServer(options: SubscriptionServerOptions): SubscriptionServer {
  const { server, schema, eventSources, authenticate, logger } = options;
  const path = options.path ?? '/graphql';
  const maxMessages = options.maxQueuedMessages ?? 1000;
  const maxBytes = options.maxQueuedBytes ?? 1024 * 1024;
  const keepAliveMs = options.keepAliveMs ?? 12_000;
  const maxSubscriptions = options.maxSubscriptionsPerSocket ?? 100;
  const sizeLimits = options.sizeLimits ?? DEFAULT_REQUEST_SIZE_LIMITS;
  const monitor = new EventEmitter();
  const fanOut = createSubscriptionFanOut({
    onExecute: (key, subscribers) => monitor.emit('execute', key, subscribers),
    onError: (err, key) => logger.error({ err, key }, 'a shared subscription failed'),
  });
  const documentLimits = options.documentLimits ?? DEFAULT_DOCUMENT_LIMITS;
  const documents = createDocumentCache(schema, { maxTokens: documentLimits.maxTokens });
  const eventContexts = options.operationContext ? createEventContexts(options.operationContext) : null;

  const admit = (state: SocketState, bytes: number): boolean => {
    if (state.closing) return false;
    if (state.queuedMessages + 1 > maxMessages || state.queuedBytes + bytes > maxBytes) {
      state.closing = true;
      logger.warn({ accountId: state.accountId, queuedMessages: state.queuedMessages, queuedBytes: state.queuedBytes }, 'closing a slow subscription consumer');
      monitor.emit('slowConsumer', state.accountId);
      state.socket.close(SLOW_CONSUMER_CLOSE_CODE, 'Slow consumer');
      return false;
    }
    state.queuedMessages++;
    state.queuedBytes += bytes;
    return true;
  };
  const release = (state: SocketState, bytes: number) => {
    state.queuedMessages--;
    state.queuedBytes -= bytes;
  };
  /**
   * Writes shared results straight to the socket as subscription `id`'s `next` messages: the message
   * bytes are built once per event (and envelope) and written as is to every socket, with none of
   * graphql-ws's per-message promises and serialization. graphql-ws still owns the subscription (its
   * iterator ends it with `complete`, and a client's `complete` stops the deliveries).
   */
  const deliverTo = (state: SocketState, id: string) => {
    const envelope = `{"id":${JSON.stringify(id)},"type":"next",`;
    return (shared: SharedResult) => {
      const bytes = shared.json.length;
      const { socket } = state;
      if (socket.readyState !== socket.OPEN) return release(state, bytes);
      socket.send(shared.message(envelope), { binary: false }, () => release(state, bytes));
    };
  };

  const gql = makeServer<Record<string, unknown> | undefined, SocketState>({
    schema,
    parse: documents.parse,
    validate: documents.validate,
    // Sockets sending the same operation text keep one shared copy of it, not one each.
    jsonMessageReviver: (key, value) => (key === 'query' && typeof value === 'string' ? documents.intern(value) : value),
    connectionInitWaitTimeout: options.connectionInitWaitTimeout ?? 3000,
    async onConnect(ctx) {
      const state = ctx.extra;
      const headers = connectionHeaders(ctx.connectionParams, state.cookie);
      state.headers = headers;
      const who = await authenticate(headers);
      if (!who) return false;
      if (state.socket.readyState !== state.socket.OPEN) return false;
      state.accountId = who.accountId;
      state.forget = eventContexts?.addSocket(who.accountId, headers) ?? null;
      const lease = eventSources.acquire(who.accountId, headers, () => state.socket.close(CloseCode.Forbidden, 'Forbidden'));
      state.lease = lease;
      // Acknowledged only once events flow, so a subscription started after the ack misses nothing.
      try {
        await lease.ready;
      } catch {
        return false;
      }
      return { accountId: who.accountId };
    },
    onSubscribe(ctx, _id, payload) {
      // Only acknowledged sockets get here (graphql-ws closes others with 4401 unparsed); sizes are
      // decided before anything parses the document.
      const tooLarge = requestSizeError(payload ?? {}, sizeLimits);
      if (tooLarge) return [withoutHttp(tooLarge)];
      // graphql-ws has already registered this one: more than the limit means one too many.
      if (Object.keys(ctx.subscriptions).length > maxSubscriptions) {
        return [new GraphQLError(`Too many subscriptions on this socket: at most ${maxSubscriptions} at once`, { extensions: { code: 'TOO_MANY_SUBSCRIPTIONS' } })];
      }
      if (typeof payload?.query === 'string') {
        let document: DocumentNode;
        try {
          document = documents.parse(payload.query);
        } catch (err) {
          // graphql-ws answers other syntax errors itself; the token limit has its own code.
          const tokens = tooManyTokensError(err, documentLimits);
          return tokens ? [withoutHttp(tokens)] : undefined;
        }
        const unbounded = documentLimitError(document, documentLimits);
        if (unbounded) return [withoutHttp(unbounded)];
        if (!options.checkOperation || documents.validate(schema, document).length > 0) return undefined;
        const refused = options.checkOperation(document, payload.operationName, payload.variables);
        if (refused) return [refused];
      }
      return undefined;
    },
    context(ctx, id, _payload, args) {
      const state = ctx.extra;
      const own: SubscriptionContext & { state: SocketState; id: string } = { accountId: state.accountId!, events: state.lease!.events, state, id };
      const operation = getOperationAST(args.document, args.operationName)?.operation;
      return operation !== 'subscription' && options.operationContext ? { ...options.operationContext(state.headers), ...own } : own;
    },
    async subscribe(args: ExecutionArgs) {
      const { accountId, events, state, id } = args.contextValue as SubscriptionContext & { state: SocketState; id: string };
      const key = JSON.stringify([accountId, args.operationName ?? null, documents.print(args.document), stableStringify(args.variableValues ?? {})]);
      // The shared execution outlives the socket that started it: its context holds nothing of that
      // socket, only its credentials, for events arriving when no socket of the account is left.
      const shared: SubscriptionContext = { accountId, events };
      const fallback = state.headers;
      const start = () => (eventContexts
        ? subscribePerEvent({ ...args, contextValue: shared }, (event) => eventContexts.contextOf(accountId, event as object, fallback))
        : graphqlSubscribe({ ...args, contextValue: shared })) as Promise<AsyncIterable<ExecutionResult> | ExecutionResult>;
      const joined = await fanOut.join(key, start, {
        admit: (bytes) => admit(state, bytes),
        release: (bytes) => release(state, bytes),
        deliver: deliverTo(state, id),
      });
      if (Symbol.asyncIterator in joined) monitor.emit('subscribed', key);
      return joined as AsyncGenerator<ExecutionResult> | ExecutionResult;
    },
  });

  const wss = new WebSocketServer({ noServer: true, handleProtocols, maxPayload: maxBodyBytes(sizeLimits) });
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (new URL(request.url ?? '/', 'http://x').pathname !== path) {
      // Another upgrade handler may own this path; without one the socket would dangle.
      if (server.listenerCount('upgrade') === 1) socket.destroy();
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
  };
  server.on('upgrade', onUpgrade);

  // One keep-alive timer for all sockets, not one per socket: every keepAliveMs each socket that did
  // not answer the previous ping is dropped and the others are pinged, a slice at a time.
  const slices = Array.from({ length: KEEP_ALIVE_SLICES }, () => new Set<SocketState>());
  let nextSlice = 0;
  let sweepSlice = 0;
  const keepAlive = keepAliveMs > 0 ? setInterval(() => {
    const slice = slices[sweepSlice]!;
    sweepSlice = (sweepSlice + 1) % KEEP_ALIVE_SLICES;
    for (const state of slice) {
      if (state.socket.readyState !== state.socket.OPEN) continue;
      if (!state.alive) {
        state.socket.terminate();
        continue;
      }
      state.alive = false;
      state.socket.ping();
    }
  }, keepAliveMs / KEEP_ALIVE_SLICES) : null;
  keepAlive?.unref();

  wss.on('connection', (socket: WebSocket, request: IncomingMessage) => {
    const state: SocketState = { socket, accountId: null, headers: {}, cookie: request.headers.cookie, lease: null, forget: null, queuedMessages: 0, queuedBytes: 0, closing: false, alive: true };
    const slice = slices[nextSlice]!;
    nextSlice = (nextSlice + 1) % KEEP_ALIVE_SLICES;
    slice.add(state);
    socket.once('error', (err) => {
      logger.warn({ err }, 'graphql-ws socket error');
      socket.terminate();
    });
    socket.on('pong', () => {
      state.alive = true;
    });

    const closed = gql.opened({
      protocol: socket.protocol,
      // graphql-ws's own messages (acks, query results, errors, completes); shared results bypass it (deliverTo).
      send: (data) => new Promise<void>((resolve) => {
        if (socket.readyState !== socket.OPEN) return resolve();
        socket.send(data, () => resolve());
      }),
      close: (code, reason) => socket.close(code, reason),
      onMessage: (cb) => socket.on('message', async (data) => {
        try {
          await cb(String(data));
        } catch (err) {
          logger.error({ err }, 'graphql-ws message handling failed');
          socket.close(CloseCode.InternalServerError, 'Internal server error');
        }
      }),
    }, state);

    socket.once('close', (code, reason) => {
      slice.delete(state);
      state.closing = true;
      state.lease?.release();
      state.lease = null;
      state.forget?.();
      state.forget = null;
      void closed(code, String(reason));
    });
  });

  return {
    monitor,
    stats: () => ({ sockets: wss.clients.size, ...fanOut.stats() }),
    closeWhere(test) {
      let closedSockets = 0;
      for (const slice of slices) {
        for (const state of slice) {
          if (state.accountId === null || state.socket.readyState !== state.socket.OPEN || !test(state.headers)) continue;
          state.socket.close(CloseCode.Forbidden, 'Forbidden: the API key was revoked');
          closedSockets++;
        }
      }
      return closedSockets;
    },
    async recheck(accept, accountId) {
      const open = [...slices].flatMap((slice) => [...slice]).filter((state) =>
        state.accountId !== null && (accountId == null || state.accountId === accountId) && state.socket.readyState === state.socket.OPEN);
      const verdicts = await Promise.all(open.map((state) => accept(state.headers).catch(() => true)));
      let closedSockets = 0;
      open.forEach((state, i) => {
        if (verdicts[i] || state.socket.readyState !== state.socket.OPEN) return;
        state.socket.close(CloseCode.Forbidden, 'Forbidden: access was withdrawn');
        closedSockets++;
      });
      return closedSockets;
    },
    async close() {
      server.off('upgrade', onUpgrade);
      if (keepAlive) clearInterval(keepAlive);
      for (const client of wss.clients) client.close(1001, 'Going away');
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      for (const client of wss.clients) client.terminate();
      await eventSources.close();
    },
  };
}
