import { createGraphiQLFetcher, type Fetcher } from '@graphiql/toolkit';
import { createClient, type Client } from 'graphql-ws';
import { authHeaders, connectionParams, type Credentials } from '../src/shell/credentials.js';

/** The graphql-ws URL of the page's own origin: ws:// beside http://, wss:// beside https://. */
export function subscriptionUrl(location: Pick<Location, 'protocol' | 'host'>): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`;
}

/** A fetcher and the socket client it shares between subscriptions (disposed when the key changes). */
export interface LookoutFetcher {
  fetcher: Fetcher;
  wsClient: Client;
}

/**
 * GraphiQL's fetcher for this server: queries and mutations over HTTP POST /graphql with the key's
 * headers (which also satisfy the endpoint's CSRF prevention), subscriptions over one lazy graphql-ws
 * socket authenticated in connection_init, introspection over HTTP for docs and autocompletion.
 */
export function createLookoutFetcher(credentials: Credentials, location: Pick<Location, 'protocol' | 'host'> = window.location): LookoutFetcher {
  const wsClient = createClient({
    url: subscriptionUrl(location), connectionParams: connectionParams(credentials), lazy: true,
    // A refused key (4403) stays refused: fail the subscription at once instead of retrying for half a minute.
    shouldRetry: (closeEvent) => (closeEvent as { code?: unknown } | undefined)?.code !== 4403,
  });
  const fetcher = createGraphiQLFetcher({
    url: '/graphql',
    headers: authHeaders(credentials),
    wsClient,
    // The server answers single JSON results; no multipart parsing needed.
    enableIncrementalDelivery: false,
  });
  return { fetcher, wsClient };
}
