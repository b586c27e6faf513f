import { cacheExchange } from '@urql/exchange-graphcache';
import { createClient as createWsClient } from 'graphql-ws';
import { Client, fetchExchange, subscriptionExchange } from 'urql';
import { schema } from '../__generated__/schema.js';
import { authHeaders, connectionParams, type Credentials } from './credentials.js';

/** ws(s)://<this host>/graphql: the subscriptions endpoint of the server serving the console. */
function socketUrl(): string {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss' : 'ws'}://${host}/graphql`;
}

/** A urql client and the socket behind its subscriptions; dispose() closes the socket (sign-out). */
export interface ConsoleClient {
  client: Client;
  dispose(): void;
}

/**
 * The console's GraphQL client: a normalized cache that knows the schema (so Check interfaces and
 * unions resolve, and a CheckStatus a subscription delivers updates the rows showing it), queries
 * and mutations over HTTP POST, subscriptions over one graphql-ws socket.
 */
export function createConsoleClient(credentials: Credentials): ConsoleClient {
  const ws = createWsClient({ url: socketUrl(), connectionParams: connectionParams(credentials), lazy: true, retryAttempts: Infinity });
  const client = new Client({
    url: '/graphql',
    // POST only: a GET would need the CSRF-prevention header, and keys never belong in URLs.
    preferGetMethod: false,
    fetchOptions: () => ({ headers: authHeaders(credentials) }),
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
  return { client, dispose: () => void ws.dispose() };
}
