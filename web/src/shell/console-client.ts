import { cacheExchange } from '@urql/exchange-graphcache';
import { createClient as createWsClient } from 'graphql-ws';
import { Client, fetchExchange, subscriptionExchange } from 'urql';
import { schema } from '../__generated__/schema.js';
import { createConnectionState, type ConnectionState } from './connection-state.js';
import { consoleHeaders, consoleSocketParams, type ConsoleAuth } from './console-auth.js';
import { reconnectDelay } from './reconnect-delay.js';
import { createRestClient, type RestClient } from './rest-context.js';

/** The close code of a socket whose key the server refused (revoked or unknown). */
const FORBIDDEN = 4403;

/** ws(s)://<this host>/graphql: the subscriptions endpoint of the server serving the console. */
function socketUrl(): string {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss' : 'ws'}://${host}/graphql`;
}

/** A urql client, the socket behind its subscriptions and that socket's state, the REST client; dispose() closes the socket (sign-out). */
export interface ConsoleClient {
  client: Client;
  rest: RestClient;
  connection: ConnectionState;
  dispose(): void;
}

/**
 * The console's GraphQL client: a normalized cache that knows the schema (so Check interfaces and
 * unions resolve, and a CheckStatus a subscription delivers updates the rows showing it), queries
 * and mutations over HTTP POST, subscriptions over one graphql-ws socket. The socket stays open
 * while signed in (so a dropped one shows on every screen) and, once dropped, is retried for ever
 * with a capped back-off; `connection` tells the screens, which re-read their data once it is back.
 */
export function createConsoleClient(auth: ConsoleAuth): ConsoleClient {
  const headers = consoleHeaders(auth);
  const connection = createConnectionState();
  const ws = createWsClient({
    url: socketUrl(),
    connectionParams: consoleSocketParams(auth),
    lazy: false,
    retryAttempts: Infinity,
    retryWait: (retries) => new Promise((resolve) => setTimeout(resolve, reconnectDelay(retries))),
    // Any drop is worth retrying (a restarting server closes with 1001 or refuses the connection,
    // 1006) but a refused key or ended session (4403): that one will not be accepted on the next try either.
    shouldRetry: (event) => (event as { code?: unknown } | null)?.code !== FORBIDDEN,
    // Codes graphql-ws deems fatal and a refused key end here: retrying cannot help.
    onNonLazyError: () => connection.onStopped(),
    on: {
      connected: () => connection.onConnected(),
      closed: (event) => connection.onClosed((event as { code?: number } | undefined)?.code),
    },
  });
  const client = new Client({
    url: '/graphql',
    // POST only: a GET would need the CSRF-prevention header, and keys never belong in URLs.
    preferGetMethod: false,
    // A session's cookie goes by itself (same origin); its CSRF token and the key go as headers.
    fetchOptions: () => ({ headers, credentials: 'same-origin' }),
    exchanges: [
      cacheExchange({
        schema,
        keys: {
          // Types identified by something other than `id`, or embedded in their parent.
          CheckStatus: (data) => (typeof data.checkId === 'string' ? data.checkId : null),
          AlertNotification: (data) => (typeof data.notificationId === 'string' ? data.notificationId : null),
          AccountOverview: () => 'overview',
          AlertChannelSubscriber: (data) => (typeof data.subscriptionId === 'number' ? String(data.subscriptionId) : null),
          Location: (data) => (typeof data.region === 'string' ? data.region : null),
          // Subscription payloads: embedded in their event, the incident inside is normalized.
          IncidentEvent: () => null,
          // Test sessions' parts and a resource's project membership: embedded in their parent.
          TestSessionCheckRun: () => null,
          TestSessionResult: () => null,
          TestSessionResultAsset: () => null,
          TestSessionEvent: () => null,
          ProjectMembership: () => null,
          // "Send test" answers and the webhook template variables: values, not entities.
          AlertChannelTestPayload: () => null,
          WebhookTemplateVariable: () => null,
        },
      }),
      fetchExchange,
      subscriptionExchange({
        forwardSubscription: (request) => ({
          subscribe: (sink) => ({ unsubscribe: ws.subscribe({ ...request, query: request.query ?? '' }, sink) }),
        }),
      }),
    ],
  });
  return { client, rest: createRestClient(headers), connection, dispose: () => void ws.dispose() };
}
